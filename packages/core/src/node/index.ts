// Public API of @skillport/core/node: filesystem loading, zipping and discovery of installed skills.
// Node-only; the package root stays runtime-neutral.

export {};

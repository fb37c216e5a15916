// Public API of @skillport/server: create and start the Skillport HTTP server in-process.

export {};

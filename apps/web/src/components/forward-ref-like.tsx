/**
 * A component that fills an imperative handle object owned by its parent (`useRef({})`), without
 * preact/compat's forwardRef.
 */
import type { JSX } from 'preact';

export function forwardRefLike<H, P>(render: (props: P, handle: Partial<H>) => JSX.Element) {
  return (props: P & { handle: Partial<H> }) => render(props, props.handle);
}

/**
 * A button label that keeps the width of its widest state (Block/Unblock, Remove/Confirm): every
 * variant is laid out invisibly, one per line, under the current one (a CSS `attr()` pseudo-element of
 * no height, so it is no part of the button's text or accessible name), and buttons beside it never move.
 */
export function StableLabel({ current, variants }: { current: string; variants: string[] }) {
  return <span class="stable-label" data-ghost={variants.join('\n')}>{current}</span>
}

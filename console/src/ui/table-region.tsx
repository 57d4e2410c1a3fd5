import type { ReactNode } from "react";

/**
 * A `.table-wrap` that scrolls sideways on a narrow screen and can be reached by keyboard to do
 * so: a named region in the tab order (axe's scrollable-region-focusable).
 */
export function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
    <section className="table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}

import type { SatteriProcessorOptions } from '@astrojs/markdown-satteri';
import type { Element, ElementContent } from 'hast';

type HastPlugin = NonNullable<SatteriProcessorOptions['hastPlugins']>[number];

/** The text of a table's header cells, in order: what a person hears the scrolling box called. */
function headerCells(node: Element | ElementContent, text: (cell: Element) => string): string[] {
  if (node.type !== 'element') return [];
  if (node.tagName === 'th') return [text(node)];
  return node.children.flatMap((child) => headerCells(child, text));
}

/**
 * Lets what is wider than a phone in a post scroll inside its own box instead of widening the page.
 *
 * A table is wrapped in a box that scrolls sideways, rather than turned into a scrolling block
 * itself: `display: block` on a table loses its table semantics in some screen readers. The
 * box can take keyboard focus (arrow keys scroll it) and is a named region, so that a screen
 * reader user tabbing to it hears what it holds. A code block scrolls itself (CSS) and takes
 * focus for the same reason.
 */
export const wideContent = {
  name: 'wide-content',
  element: {
    filter: ['table', 'pre'],
    visit(node, ctx) {
      if (node.tagName === 'pre') {
        ctx.setProperty(node, 'tabIndex', 0);
        return;
      }
      const columns = headerCells(node, (cell) => ctx.textContent(cell).trim()).filter(Boolean);
      const label = columns.length ? `Table: ${columns.join(', ')}` : 'Table';
      ctx.wrapNode(node, {
        type: 'element',
        tagName: 'div',
        properties: { className: ['table-scroll'], role: 'region', tabIndex: 0, ariaLabel: label },
        children: [],
      });
    },
  },
} satisfies HastPlugin;

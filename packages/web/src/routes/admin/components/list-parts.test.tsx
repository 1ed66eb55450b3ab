import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScrollArea } from './list-parts.tsx';

/** jsdom lays nothing out: the box's widths are what the test says they are. */
function widths(scroll: number, client: number) {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(scroll);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(client);
}

function table() {
  return (
    <ScrollArea label="Audit log">
      <table aria-label="Audit log">
        <tbody>
          <tr>
            <td>login.failure</td>
          </tr>
        </tbody>
      </table>
    </ScrollArea>
  );
}

describe('ScrollArea', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is a named region the keyboard can focus (and scroll) when its table is wider than the screen', () => {
    widths(760, 343);
    render(table());
    const region = screen.getByRole('region', { name: 'Audit log' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(region).toContainElement(screen.getByRole('table', { name: 'Audit log' }));
  });

  it('is no stop for the keyboard and no landmark when everything fits', () => {
    widths(343, 343);
    const { container } = render(table());
    expect(screen.queryByRole('region')).toBeNull();
    expect(container.querySelector('[tabindex]')).toBeNull();
  });
});

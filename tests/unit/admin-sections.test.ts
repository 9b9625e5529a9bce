import { describe, expect, test } from 'vitest';
import { shownSections } from '../../src/components/islands/admin/AdminDashboard';

describe('the admin page’s sections', () => {
  test('an external dashboard has a section and a menu entry of its own, last, when its address is set', () => {
    const { sections, ids } = shownSections('https://stats.example/share/acme');
    expect(sections.at(-1)).toEqual({ id: 'external-dashboard', label: 'External dashboard' });
    expect(ids).toContain('external-dashboard');
  });

  test('without an address there is no such section, menu entry or anchor, and nothing else is missing', () => {
    const { sections, ids } = shownSections(undefined);
    expect(ids).not.toContain('external-dashboard');
    expect(sections.map((section) => section.label)).toEqual([
      'Leads',
      'Bookings',
      'Visits',
      'Figures',
      'Spam',
      'Subscribers',
      'Newsletter',
      'Outbox',
      'Delivery',
    ]);
  });

  test('the lists are the same from one render to the next', () => {
    expect(shownSections('https://stats.example/').ids).toBe(shownSections('https://other.example/').ids);
    expect(shownSections(undefined).ids).toBe(shownSections('').ids);
  });
});

/**
 * Every form a visitor can send, as the e2e tests drive it: how to open it, what to type, which
 * button sends it, the endpoint it posts to and what a person sees when it worked.
 */
import type { Locator, Page } from '@playwright/test';

export interface FormCase {
  name: string;
  /** Opens the page and gives the form, ready to fill. */
  open: (page: Page) => Promise<Locator>;
  fields: (email: string) => Record<string, string>;
  button: string;
  endpoint: string;
  /** What a person sees after sending. */
  success: (page: Page, form: Locator) => Locator;
  /** What a person sees when it could not be sent. */
  failure: (page: Page, form: Locator) => Locator;
}

const subscribedToast = (page: Page) =>
  page
    .getByRole('region', { name: 'Notification' })
    .getByRole('listitem')
    .filter({ hasText: 'Subscribed successfully!' });

const failedToast = (page: Page) =>
  page.getByRole('region', { name: 'Notification' }).getByRole('listitem').filter({ hasText: 'Subscription failed' });

const formAlert = (_page: Page, form: Locator) => form.getByRole('alert');

export const FORMS: FormCase[] = [
  {
    name: 'the footer signup',
    open: async (page) => {
      await page.goto('/contact');
      return page.getByRole('form', { name: 'Newsletter signup' });
    },
    fields: (email) => ({ Name: 'Robot Footer', 'E-mail': email }),
    button: 'Subscribe',
    endpoint: '/api/newsletter/subscribe',
    success: (page) => subscribedToast(page),
    failure: (page) => failedToast(page),
  },
  {
    name: 'the newsletter form of a blog post',
    open: async (page) => {
      await page.goto('/blog/what-to-automate-first');
      return page.getByRole('form', { name: 'Newsletter', exact: true });
    },
    fields: (email) => ({ 'First name': 'Robot', 'Last name': 'Blog', 'E-mail': email }),
    button: 'Subscribe',
    endpoint: '/api/subscribers',
    success: (page) => subscribedToast(page),
    failure: (page) => failedToast(page),
  },
  {
    name: 'the Zoho guide form',
    open: async (page) => {
      await page.goto('/zoho');
      return page.getByRole('form', { name: 'Request the Zoho guide' });
    },
    fields: (email) => ({ 'First name': 'Robot', 'Last name': 'Guide', 'E-mail': email }),
    button: 'Send me the guide',
    endpoint: '/api/leads/create',
    success: (_page, form) => form.getByRole('status'),
    failure: formAlert,
  },
  {
    name: 'the contact form of the contact page',
    open: async (page) => {
      await page.goto('/contact');
      return page.getByRole('main').getByRole('form', { name: 'Contact form' });
    },
    fields: (email) => ({ Name: 'Robot Contact', 'E-mail': email, 'How can we help?': 'Buy cheap things' }),
    button: 'Send message',
    endpoint: '/api/leads/create',
    success: (_page, form) => form.getByRole('status'),
    failure: formAlert,
  },
  {
    name: 'the contact form of the dialog',
    open: async (page) => {
      await page.goto('/');
      await page.getByRole('main').getByRole('button', { name: 'Contact Us' }).click();
      return page
        .getByRole('dialog', { name: 'Contact Us / Request Demo' })
        .getByRole('form', { name: 'Contact form' });
    },
    fields: (email) => ({ Name: 'Robot Dialog', 'E-mail': email, 'How can we help?': 'Buy cheap things' }),
    button: 'Send message',
    endpoint: '/api/leads/create',
    success: (_page, form) => form.getByRole('status'),
    failure: formAlert,
  },
];

/** Whether the island around `form` has run: Astro removes its `ssr` mark once it has hydrated. */
export const islandRan = (form: Locator) =>
  form.evaluate((element) => element.closest('astro-island')?.hasAttribute('ssr') === false);

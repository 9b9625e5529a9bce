import { afterEach, describe, expect, test } from 'vitest';
import { deliverySetup, siteOrigin } from '../../functions/_lib/delivery/settings';
import { resetEnv } from '../../functions/_lib/platform/env';

const KEYS = [
  'SITE_LOCAL_RUN',
  'SMTP_URL',
  'MAIL_FROM',
  'LEADS_NOTIFY_TO',
  'LEAD_WEBHOOK_URL',
  'LEAD_WEBHOOK_SECRET',
  'PUBLIC_SITE_URL',
  'URL',
];
const saved = Object.fromEntries(KEYS.map((key) => [key, process.env[key]]));

function environment(values: Record<string, string>) {
  for (const key of KEYS) delete process.env[key];
  Object.assign(process.env, values);
  resetEnv();
}

afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetEnv();
});

const SMTP = 'smtps://user:secret@smtp.example.com:465';

describe('what the admin page says about delivery', () => {
  test('a deployed site without SMTP_URL warns that nobody is being notified', () => {
    environment({});
    const setup = deliverySetup();
    expect(setup.mail).toBe('none');
    expect(setup.warning?.title).toBe('Nobody is being notified');
    expect(setup.warning?.text).toMatch(/Set SMTP_URL and MAIL_FROM .* and redeploy/);
  });

  test('a deployed site with SMTP_URL but no MAIL_FROM warns that its e-mails may be refused', () => {
    environment({ SMTP_URL: SMTP, LEADS_NOTIFY_TO: 'owner@okafor-bakeries.com' });
    expect(deliverySetup().warning).toEqual({
      title: 'E-mails may be refused',
      text: expect.stringMatching(
        /^MAIL_FROM is not set, so e-mails are sent from "Loopwork" <hello@loopwork\.example>\./,
      ),
    });
    environment({ SMTP_URL: SMTP, MAIL_FROM: 'hi@okafor-bakeries.com', LEADS_NOTIFY_TO: 'owner@okafor-bakeries.com' });
    expect(deliverySetup().warning).toBeUndefined();
  });

  test('a deployed site that notifies the placeholder contact address says the notifications go nowhere', () => {
    environment({ SMTP_URL: SMTP, MAIL_FROM: 'hi@okafor-bakeries.com' });
    expect(deliverySetup().warning).toEqual({
      title: 'Lead notifications go nowhere',
      text: expect.stringMatching(/^They are sent to hello@loopwork\.example, a placeholder address/),
    });
  });

  test.each([
    ['team@example.com', true],
    ['owner@shop.example', true],
    ['a@b.test', true],
    ['owner@shop.invalid', true],
    ['me@examples.com', false],
    ['me@example.co.uk', false],
    ['owner@okafor-bakeries.com', false],
  ])('notifying %s is a placeholder warning: %s', (address, warned) => {
    environment({ SMTP_URL: SMTP, MAIL_FROM: 'hi@okafor-bakeries.com', LEADS_NOTIFY_TO: address });
    expect(deliverySetup().warning?.title === 'Lead notifications go nowhere').toBe(warned);
  });

  test('a local run without SMTP_URL writes the e-mails to the local outbox, without a warning', () => {
    environment({ SITE_LOCAL_RUN: 'true' });
    expect(deliverySetup()).toEqual({ mail: 'file', notifyTo: ['hello@loopwork.example'], webhook: false });
  });

  test('with SMTP_URL, the recipients and a webhook, all is said and nothing is warned', () => {
    environment({
      SMTP_URL: 'smtps://user:secret@smtp.example.com:465',
      MAIL_FROM: 'Loopwork <hello@loopwork.example>',
      LEADS_NOTIFY_TO: 'Owner@Okafor-Bakeries.com, sales@okafor-bakeries.com',
      LEAD_WEBHOOK_URL: 'https://hooks.example.com/catch',
      LEAD_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
    });
    expect(deliverySetup()).toEqual({
      mail: 'smtp',
      notifyTo: ['owner@okafor-bakeries.com', 'sales@okafor-bakeries.com'],
      webhook: true,
    });
  });

  test('a webhook URL without its secret is a configuration error that names the variable', () => {
    environment({ LEAD_WEBHOOK_URL: 'https://hooks.example.com/catch' });
    expect(() => deliverySetup()).toThrow(/LEAD_WEBHOOK_SECRET/);
  });
});

describe("the e-mails' links", () => {
  const request = new Request('http://attacker.example/api/leads/create');

  test('a deployed site links to its own URL, never to the Host a client sent', () => {
    environment({ PUBLIC_SITE_URL: 'https://www.loopwork.example' });
    expect(siteOrigin(request, { site: { id: '', name: '', url: 'https://loopwork.netlify.app' } })).toBe(
      'https://www.loopwork.example',
    );
    environment({});
    expect(siteOrigin(request, { site: { id: '', name: '', url: 'https://loopwork.netlify.app' } })).toBe(
      'https://loopwork.netlify.app',
    );
  });

  test.each([
    'https://deploy-preview-12--loopwork.netlify.app',
    'https://fix-footer--loopwork.netlify.app',
    'https://6790abc123def4560008a1b2--loopwork.netlify.app',
  ])('a deploy preview or branch deploy (%s) links to itself, so its links reach its own store', (origin) => {
    environment({ PUBLIC_SITE_URL: 'https://www.loopwork.example' });
    const site = { id: '', name: 'loopwork', url: 'https://www.loopwork.example' };
    expect(siteOrigin(new Request(`${origin}/api/newsletter/subscribe`), { site })).toBe(origin);
  });

  test.each([
    'https://deploy-preview-12--other-site.netlify.app',
    'https://loopwork.netlify.app.evil.example',
    'https://x--loopwork.netlify.app.evil.example',
    'http://deploy-preview-12--loopwork.netlify.app',
  ])('a deployed site reached as %s links to its configured URL', (origin) => {
    environment({ PUBLIC_SITE_URL: 'https://www.loopwork.example' });
    const site = { id: '', name: 'loopwork', url: 'https://www.loopwork.example' };
    expect(siteOrigin(new Request(`${origin}/api/newsletter/subscribe`), { site })).toBe(
      'https://www.loopwork.example',
    );
  });

  test.each(['http://localhost:4399', 'http://127.0.0.1:8080', 'http://[::1]:4321', 'http://localhost'])(
    'a local run opened at the loopback address %s links to it',
    (origin) => {
      environment({ SITE_LOCAL_RUN: 'true' });
      expect(siteOrigin(new Request(`${origin}/api/x`), { site: { id: '', name: '', url: '' } })).toBe(origin);
    },
  );

  test.each(['http://evil.example', 'http://localhost.evil.example', 'http://127.0.0.1.evil.example:4321'])(
    'a local run reached with the Host %s links to the configured site URL instead',
    (origin) => {
      environment({ SITE_LOCAL_RUN: 'true', PUBLIC_SITE_URL: 'http://192.168.1.20:4321' });
      expect(siteOrigin(new Request(`${origin}/api/x`), { site: { id: '', name: '', url: '' } })).toBe(
        'http://192.168.1.20:4321',
      );
    },
  );

  test('a local run reached at the configured site URL links to it', () => {
    environment({ SITE_LOCAL_RUN: 'true', PUBLIC_SITE_URL: 'http://192.168.1.20:4321' });
    expect(siteOrigin(new Request('http://192.168.1.20:4321/api/x'), { site: { id: '', name: '', url: '' } })).toBe(
      'http://192.168.1.20:4321',
    );
  });
});

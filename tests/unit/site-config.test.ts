import { describe, expect, test } from 'vitest';
import { readSiteConfig } from '../../src/site.config';

describe('readSiteConfig', () => {
  test('works with no configuration at all', () => {
    const site = readSiteConfig({});
    expect(site.url).toBe('http://localhost:4321');
    expect(site.name).toBeTruthy();
    expect(site.email).toContain('@');
    expect(site.contactFormUrl).toBeUndefined();
    expect(site.chatWidgetUrl).toBeUndefined();
    expect(site.externalDashboardUrl).toBeUndefined();
    expect(site.replyPromise).toContain('24 hours');
  });

  test('on a local run, is where `npm start` serves the build: the PORT set when it is built', () => {
    expect(readSiteConfig({ PORT: '4833' }).url).toBe('http://localhost:4833');
    expect(readSiteConfig({ PORT: ' 8080 ' }).url).toBe('http://localhost:8080');
    expect(readSiteConfig({ PORT: '80' }).url, 'the default port of http, as a URL writes it').toBe('http://localhost');
    for (const wrong of ['eighty', '0', '65536', '99999', '1e4', '8080.0', '-1'])
      expect(readSiteConfig({ PORT: wrong }).url, wrong).toBe('http://localhost:4321');
    expect(readSiteConfig({ PORT: '4833', PUBLIC_SITE_URL: 'https://acme.example' }).url).toBe('https://acme.example');
    expect(readSiteConfig({ PORT: '4833', URL: 'https://acme.netlify.app' }).url).toBe('https://acme.netlify.app');
  });

  test('takes every value from PUBLIC_* variables', () => {
    const site = readSiteConfig({
      PUBLIC_BRAND_NAME: 'Acme Flow',
      PUBLIC_SITE_URL: 'https://acme.example/',
      PUBLIC_CONTACT_EMAIL: 'team@acme.example',
      PUBLIC_LINKEDIN_URL: 'https://www.linkedin.com/company/acme',
      PUBLIC_CONTACT_FORM_URL: 'https://forms.example/acme',
      PUBLIC_CHAT_WIDGET_URL: 'https://chat.example/widget.js',
      PUBLIC_EXTERNAL_DASHBOARD_URL: 'https://stats.example/acme',
    });
    expect(site).toMatchObject({
      name: 'Acme Flow',
      url: 'https://acme.example',
      email: 'team@acme.example',
      linkedinUrl: 'https://www.linkedin.com/company/acme',
      contactFormUrl: 'https://forms.example/acme',
      chatWidgetUrl: 'https://chat.example/widget.js',
      externalDashboardUrl: 'https://stats.example/acme',
    });
  });

  test('reads the external dashboard under its former name, PUBLIC_ANALYTICS_DASHBOARD_URL, when the new one is unset', () => {
    const former = 'https://stats.example/former';
    expect(readSiteConfig({ PUBLIC_ANALYTICS_DASHBOARD_URL: former }).externalDashboardUrl).toBe(former);
    expect(
      readSiteConfig({ PUBLIC_EXTERNAL_DASHBOARD_URL: '', PUBLIC_ANALYTICS_DASHBOARD_URL: former })
        .externalDashboardUrl,
    ).toBe(former);
    expect(
      readSiteConfig({
        PUBLIC_EXTERNAL_DASHBOARD_URL: 'https://stats.example/acme',
        PUBLIC_ANALYTICS_DASHBOARD_URL: former,
      }).externalDashboardUrl,
    ).toBe('https://stats.example/acme');
  });

  test.each([
    ['GB', 'Manchester M1 3HE'],
    ['IE', 'Manchester M1 3HE'],
    ['us', 'Manchester M1 3HE'],
    ['DE', 'M1 3HE Manchester'],
    ['FR', 'M1 3HE Manchester'],
  ])('writes an address of %s with its postal code where that country puts it', (country, town) => {
    const site = readSiteConfig({
      PUBLIC_ADDRESS_STREET: '12 Canal Street',
      PUBLIC_ADDRESS_LOCALITY: 'Manchester',
      PUBLIC_ADDRESS_POSTAL_CODE: 'M1 3HE',
      PUBLIC_ADDRESS_COUNTRY: country,
    });
    expect(site.address.lines).toEqual(['12 Canal Street', town]);
  });

  test("falls back to Netlify's URL when PUBLIC_SITE_URL is unset", () => {
    expect(readSiteConfig({ URL: 'https://loopwork.netlify.app' }).url).toBe('https://loopwork.netlify.app');
  });

  test.each(['deploy-preview', 'branch-deploy'])(
    "a %s build takes its assets from the deploy's own address",
    (context) => {
      const site = readSiteConfig({
        URL: 'https://loopwork.example',
        CONTEXT: context,
        DEPLOY_PRIME_URL: 'https://deploy-preview-42--loopwork.netlify.app',
      });
      expect(site.assetsUrl).toBe('https://deploy-preview-42--loopwork.netlify.app');
      expect(site.url).toBe('https://loopwork.example');
    },
  );

  test.each(['production', 'dev', undefined])('a %s build takes its assets from the production URL', (context) => {
    const site = readSiteConfig({
      URL: 'https://loopwork.example',
      CONTEXT: context,
      DEPLOY_PRIME_URL: 'https://main--loopwork.netlify.app',
    });
    expect(site.assetsUrl).toBe('https://loopwork.example');
  });

  test.each(['javascript:alert(1)', 'not a url', '   ', 'ftp://files.example/x'])(
    'ignores an embed URL that is not http(s): %s',
    (value) => {
      const site = readSiteConfig({ PUBLIC_CHAT_WIDGET_URL: value, PUBLIC_CONTACT_FORM_URL: value });
      expect(site.chatWidgetUrl).toBeUndefined();
      expect(site.contactFormUrl).toBeUndefined();
    },
  );

  test('writes the admin page in en-GB unless PUBLIC_SITE_LOCALE names another locale, in its canonical spelling', () => {
    expect(readSiteConfig({}).locale).toBe('en-GB');
    expect(readSiteConfig({ PUBLIC_SITE_LOCALE: 'en-US' }).locale).toBe('en-US');
    expect(readSiteConfig({ PUBLIC_SITE_LOCALE: ' fr-fr ' }).locale).toBe('fr-FR');
  });

  test.each(['', '   ', 'en_GB', 'english', '12'])(
    'a PUBLIC_SITE_LOCALE of "%s", which Intl cannot use, leaves the admin page in en-GB',
    (value) => {
      expect(readSiteConfig({ PUBLIC_SITE_LOCALE: value }).locale).toBe('en-GB');
    },
  );
});

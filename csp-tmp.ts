import { chromium } from '@playwright/test';
import { startSiteServer } from './tests/support/site-server.ts';
const server = await startSiteServer({ ADMIN_PASSWORD: 'x', SESSION_SECRET: 'audit-session-secret-0123456789abcdef0123' });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
try {
  const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
  page.on('console', (m) => console.log('console', m.type(), m.text()));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Audits.enable');
  cdp.on('Audits.issueAdded', (e) => console.log('issue', JSON.stringify(e.issue).slice(0, 600)));
  await page.goto(`${server.origin}${process.argv[2] ?? '/admin/insights'}`, { waitUntil: 'networkidle' });
  await page.waitForTimeout(1500);
} finally { await browser.close(); server.stop(); }

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpPeer } from '../packages/server/src/test-support/smtp-peer.js';
import {
  ensureWebBuild,
  hasBrowser,
  launchBrowser,
  screenshotPath,
  startE2eServer,
  type E2eServer,
} from './harness.js';

type Smtp = Awaited<ReturnType<typeof startSmtpPeer>>;
const PASSWORD = 'Launch!pad9';

describe.runIf(hasBrowser)('identity in the browser', () => {
  let smtp: Smtp;
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    await ensureWebBuild();
    smtp = await startSmtpPeer();
    server = await startE2eServer({ SMTP_URL: smtp.url });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    return context.newPage();
  }

  /** Signs up through the form and verifies with the code from the mail; ends on the dashboard. */
  async function signUp(page: Page, email: string, firstName: string) {
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('First name').fill(firstName);
    await page.getByLabel('Last name').fill('Tester');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/verify-email/);
    const mail = await smtp.waitFor(email, /verification code/);
    const code = /(\d{6})$/.exec(mail.subject)![1]!;
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/dashboard/);
    await page.getByTestId('app-shell').waitFor();
  }

  it('signs up with a mailed code, signs out, and signs in again', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/pipelines`);
    await page.waitForURL(/\/login\?next=%2Fpipelines/);
    await signUp(page, 'ada@e2e.test', 'Ada');
    await page.screenshot({ path: screenshotPath('identity-signed-up') });

    await page.getByTestId('user-menu').click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL(/\/login/);

    await page.getByLabel('Email').fill('ada@e2e.test');
    await page.getByLabel('Password', { exact: true }).fill('Wrong!pass1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid credentials').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard/);
    await page.getByTestId('app-shell').waitFor();
    expect(await page.evaluate(() => Boolean(localStorage.getItem('slipway.auth')))).toBe(true);
    await page.context().close();
  });
});

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
    await skipTour(page);
  }

  /** A first sign-in of someone who may create applications starts the guided tour: skipped here. */
  async function skipTour(page: Page) {
    await page.getByTestId('tour-popover').getByRole('button', { name: 'Skip tour' }).click();
    await page.getByTestId('tour-popover').waitFor({ state: 'detached' });
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

  it('the account page fits a 390 px phone, in English and Arabic: no button covers a name or its chip', async () => {
    const page = await newPage();
    await signUp(page, 'noor@e2e.test', 'Noor');
    await page.setViewportSize({ width: 390, height: 844 });
    for (const lang of ['en', 'ar']) {
      await page.evaluate((l) => localStorage.setItem('slipway.language', l), lang);
      await page.goto(`${server.url}/settings/account`);
      // the two lists load apart: wait for a row of each before measuring
      await page.getByTestId('organisation-row').first().waitFor();
      await page.getByTestId('workspace-row').first().waitFor();
      const rows = page.locator('[data-testid="organisation-row"], [data-testid="workspace-row"]');
      const overlaps = await rows.evaluateAll((els) =>
        els.flatMap((row) => {
          const boxes = (sel: string) =>
            Array.from(row.querySelectorAll(sel), (e) => e.getBoundingClientRect());
          const texts = boxes('.MuiListItemText-root span, .MuiChip-root');
          const buttons = boxes('button');
          const meet = (a: DOMRect, b: DOMRect) =>
            a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          const wide = row.getBoundingClientRect().right > document.documentElement.clientWidth + 1;
          return [
            ...texts.flatMap((t) => buttons.filter((b) => meet(t, b)).map(() => row.textContent)),
            ...(wide ? [`${row.textContent} is wider than the screen`] : []),
          ];
        }),
      );
      expect(overlaps, lang).toEqual([]);
      await page.screenshot({ path: screenshotPath(`identity-account-phone-${lang}`) });
    }
    await page.context().close();
  });

  it('creates a workspace, invites a member who accepts, and a custom role without pipeline rights is refused', async () => {
    const admin = await newPage();
    await signUp(admin, 'grace@e2e.test', 'Grace');

    // A second workspace.
    await admin.goto(`${server.url}/settings/account`);
    await admin.getByRole('button', { name: 'Create workspace' }).click();
    await admin.getByRole('dialog').getByLabel('Name').fill('Payments');
    await admin.getByRole('dialog').getByRole('button', { name: 'Create', exact: true }).click();
    await admin.getByTestId('workspace-row').filter({ hasText: 'Payments' }).waitFor();

    // A custom role that may look at applications and releases, and nothing about pipelines.
    await admin.goto(`${server.url}/settings/roles`);
    await admin.getByRole('button', { name: 'Create role' }).click();
    await admin.getByRole('dialog').getByLabel('Name', { exact: true }).fill('Observer');
    await admin.getByRole('checkbox', { name: 'View Applications' }).check();
    await admin.getByRole('checkbox', { name: 'View Releases' }).check();
    await admin.getByRole('dialog').getByRole('button', { name: 'Create', exact: true }).click();
    await admin.getByTestId('role-row').filter({ hasText: 'Observer' }).waitFor();

    // Invite a new member into Payments with that role.
    await admin.goto(`${server.url}/settings/team`);
    await admin.getByRole('button', { name: 'Invite member' }).click();
    await admin.getByLabel('Email').fill('lin@e2e.test');
    const dialog = admin.getByRole('dialog');
    // A select's accessible name is its label followed by its current value.
    await dialog.getByRole('combobox', { name: /^Workspace(?! role)/ }).click();
    await admin.getByRole('option', { name: 'Payments' }).click();
    await dialog.getByRole('combobox', { name: /^Workspace role/ }).click();
    await admin.getByRole('option', { name: 'Observer' }).click();
    await admin.getByRole('button', { name: 'Send invite' }).click();
    await admin.getByText('An invite was e-mailed to lin@e2e.test.').waitFor();
    await admin.getByTestId('invite-row').filter({ hasText: 'lin@e2e.test' }).waitFor();
    await admin.screenshot({ path: screenshotPath('identity-team-invite') });

    // The member follows the mailed link, chooses a name and password, and is signed in.
    const mail = await smtp.waitFor('lin@e2e.test', /invite|join/i);
    const link = /(\/set-password\?invite=[\w%-]+)/.exec(mail.text)![1]!;
    const member = await newPage();
    await member.goto(`${server.url}${link}`);
    await member.getByLabel('First name').fill('Lin');
    await member.getByLabel('Last name').fill('Member');
    await member.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await member.getByLabel('Confirm password').fill(PASSWORD);
    await member.getByRole('button', { name: 'Accept and join' }).click();
    await member.waitForURL(/\/dashboard/);
    await member.getByTestId('app-shell').waitFor();

    // No pipeline rights: the pipelines page is refused; the library opens, but creating an
    // application (which needs applications:create) is disabled.
    await member.goto(`${server.url}/pipelines`);
    await member.getByTestId('access-denied').waitFor();
    expect(await member.getByTestId('access-denied').innerText()).toContain(
      "You don't have permission to view this page",
    );
    await member.screenshot({ path: screenshotPath('identity-access-denied') });
    await member.goto(`${server.url}/applications`);
    const create = member.getByRole('button', { name: 'New application' });
    await create.waitFor();
    expect(await create.isDisabled()).toBe(true);

    // The admin's audit trail shows what happened.
    await admin.goto(`${server.url}/audit-trails`);
    await admin.getByText('member.invite_accept').first().waitFor();
    await admin.screenshot({ path: screenshotPath('identity-audit-trail') });
    await admin.context().close();
    await member.context().close();
  });

  /** Invites a person (organisation member; with a workspace role when given) and accepts for them. */
  async function inviteAndAccept(
    admin: Page,
    email: string,
    firstName: string,
    workspaceRole: string | null,
  ) {
    await admin.goto(`${server.url}/settings/team`);
    await admin.getByRole('button', { name: 'Invite member' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Email').fill(email);
    if (workspaceRole) {
      await dialog.getByRole('combobox', { name: /^Workspace role/ }).click();
      await admin.getByRole('option', { name: workspaceRole }).click();
    } else {
      await dialog.getByRole('combobox', { name: /^Workspace(?! role)/ }).click();
      await admin.getByRole('option', { name: 'No workspace' }).click();
    }
    await dialog.getByRole('button', { name: 'Send invite' }).click();
    await admin.getByText(`An invite was e-mailed to ${email}.`).waitFor();
    const mail = await smtp.waitFor(email, /invite|join/i);
    const link = /(\/set-password\?invite=[\w%-]+)/.exec(mail.text)![1]!;
    const page = await newPage();
    await page.goto(`${server.url}${link}`);
    await page.getByLabel('First name').fill(firstName);
    await page.getByLabel('Last name').fill('Tester');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Accept and join' }).click();
    await page.waitForURL(/\/dashboard/);
    return page;
  }

  it('a project admin adds, promotes and removes members of their own workspace, nothing more', async () => {
    const admin = await newPage();
    await signUp(admin, 'hopper@e2e.test', 'Hopper');
    const pat = await inviteAndAccept(admin, 'pat@e2e.test', 'Pat', 'Project admin');
    await skipTour(pat);
    const sam = await inviteAndAccept(admin, 'sam@e2e.test', 'Sam', null);
    await sam.context().close();

    await pat.goto(`${server.url}/settings/team`);
    const section = pat.getByRole('region', { name: 'Members of Default' });
    await section.getByTestId('workspace-member-row').filter({ hasText: 'pat@e2e.test' }).waitFor();
    // organisation-level actions stay with the organisation's admins
    expect(await pat.getByRole('button', { name: 'Invite member' }).isDisabled()).toBe(true);

    await section.getByRole('button', { name: 'Add to workspace' }).click();
    const dialog = pat.getByRole('dialog', { name: 'Add a member to Default' });
    await dialog.getByRole('combobox', { name: /^Member/ }).click();
    await pat.getByRole('option', { name: /sam@e2e\.test/ }).click();
    await dialog.getByRole('combobox', { name: /^Workspace role/ }).click();
    await pat.getByRole('option', { name: 'Viewer' }).click();
    await dialog.getByRole('button', { name: 'Add to workspace' }).click();
    const samRow = section.getByTestId('workspace-member-row').filter({ hasText: 'sam@e2e.test' });
    await samRow.filter({ hasText: 'Viewer' }).waitFor();

    await section.getByRole('button', { name: 'Workspace actions for Sam Tester' }).click();
    await pat.getByRole('menuitem', { name: 'Make Project Admin' }).click();
    await samRow.filter({ hasText: 'Project admin' }).waitFor();
    await pat.screenshot({ path: screenshotPath('identity-project-admin-team') });

    await section.getByRole('button', { name: 'Workspace actions for Sam Tester' }).click();
    await pat.getByRole('menuitem', { name: 'Remove from workspace' }).click();
    await pat
      .getByRole('dialog', { name: 'Remove Sam Tester from this workspace?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await samRow.waitFor({ state: 'detached' });

    // The organisation's audit trail holds the project admin's changes.
    await admin.goto(`${server.url}/audit-trails`);
    await admin.getByText('member.workspace_remove').first().waitFor();
    await admin.context().close();
    await pat.context().close();
  });
});

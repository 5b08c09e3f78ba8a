import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';

/**
 * The shop's letters as a newcomer reads them: without SMTP_URL the server writes each one as an
 * .eml file in DATA_DIR/mail (README, «E-mail»). Waits for the latest one to `to` whose subject
 * starts with `subject`, parsed as a mail client would. `dataDir`: a journey's own shop's.
 */
export async function latestLetter(
  to: string,
  subject: string,
  dataDir = process.env.SHOP_DATA_DIR!,
): Promise<ParsedMail> {
  const dir = path.join(dataDir, 'mail');
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        // The folder is made with the shop's first letter, which the outbox may not have sent yet.
        if (!existsSync(dir)) return false;
        const files = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.name.endsWith('.eml'));
        const letters = await Promise.all(files.map((file) => simpleParser(readFileSync(path.join(dir, file.name)))));
        const matching = letters.filter(
          (letter) =>
            letter.subject?.startsWith(subject) &&
            [letter.to].flat().some((address) => address?.value.some((mailbox) => mailbox.address === to)),
        );
        found = matching.sort((a, b) => (a.date?.getTime() ?? 0) - (b.date?.getTime() ?? 0)).at(-1);
        return found !== undefined;
      },
      { timeout: 20_000, message: `a letter «${subject}» to ${to} in ${dir}` },
    )
    .toBe(true);
  return found!;
}

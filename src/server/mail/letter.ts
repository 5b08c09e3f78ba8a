// Every message the shop sends has one shape: a heading, blocks of content, a link back to the shop
// and its contacts. Each block is written once and rendered twice, as HTML and as the plain-text
// part, so the two cannot say different things. Every value is escaped: names, addresses and
// comments are typed by buyers.
import type { ManagerContact } from '../../shared/api';
import type { AppConfig } from '../config';
import { SHOP_NAME } from '../../shared/page-titles';
import { SHOP_HOURS, SHOP_LOCATION } from '../../shared/shop-contacts';
import { pluralForm } from '../../shared/plurals';
import { escapeHtml } from '../html';

/** What the messages need to know about the shop. */
export interface ShopMail {
  /** The storefront's origin for links: PUBLIC_URL, else http://localhost:PORT (a local shop). */
  shopUrl: string;
  contactEmail: string;
  /** MANAGER_EMAILS: told of new orders besides the accounts with the manager role. */
  managerEmails: string[];
}

export function shopMail(config: AppConfig): ShopMail {
  return {
    shopUrl: config.publicUrl ?? `http://localhost:${config.port || 3000}`,
    contactEmail: config.mail.contactEmail,
    managerEmails: config.mail.managerEmails,
  };
}

export interface Letter {
  subject: string;
  html: string;
  text: string;
}

/** A letter and its one recipient, ready to queue in the outbox. */
export interface AddressedLetter extends Letter {
  to: string;
}

/** A value in a letter: plain, or a link (a tracking page) shown as its text. */
export type Value = string | { text: string; href: string | null };

/** One ordered line, its values formatted for the letter. */
export interface LetterLine {
  art: string;
  name: string;
  color: string;
  size: string;
  price: string;
  quantity: string;
  sum: string;
}

export type Block =
  | { paragraph: string }
  /** Label and value pairs; a pair without a value is left out. */
  | { facts: [label: string, value: Value | null | undefined][] }
  /** Someone's own words (a manager's comment), set apart and kept as written, line breaks included. */
  | { note: { label: string; text: string } }
  /**
   * An order's lines (those shown; `more` is how many are left out, said with a link to the whole
   * order) and its total. The HTML gives each line two cells (what, and how many for how much), so
   * it fits a phone; the text part names every column.
   */
  | {
      lines: {
        head: readonly string[];
        rows: LetterLine[];
        more: { count: number; href: string } | null;
        total: string;
      };
    };

/** «и ещё 12 позиций» */
export const moreLines = (count: number) =>
  `и ещё ${count} ${pluralForm(count, { one: 'позиция', few: 'позиции', many: 'позиций' })}`;

// The storefront's raspberry (client/theme/antdTheme.ts): white text on it reads at 5.4:1. The
// dark-mode colours are the storefront's dark theme's, for mail programs that follow the system's.
const BRAND = '#c0325a';
const BRAND_ON_DARK = '#e8608c';
const TEXT = '#222222';
const MUTED = '#666666';
const RULE = '#e5e5e5';
const FONT = 'font-family:Arial,Helvetica,sans-serif';

const DARK_MODE = [
  ':root{color-scheme:light dark;supported-color-schemes:light dark}',
  '@media (prefers-color-scheme: dark){',
  '.page{background:#141414!important}',
  '.card{background:#1f1f1f!important;color:#e8e8e8!important}',
  '.muted{color:#a6a6a6!important}',
  '.rule{border-color:#3a3a3a!important}',
  '.note{background:#2b2226!important;border-color:' + BRAND_ON_DARK + '!important}',
  `.card a.link{color:${BRAND_ON_DARK}!important}`,
  '.muted a.link{color:#a6a6a6!important}',
  '}',
  '@media (max-width:480px){.card{padding:16px!important}.head{padding:14px 16px!important}}',
].join('');

const html = (value: string) => escapeHtml(value);
/** Escaped, its line breaks kept. */
const htmlLines = (value: string) => escapeHtml(value).replace(/\r?\n/g, '<br>');

const valueHtml = (value: Value) =>
  typeof value === 'string'
    ? html(value)
    : value.href
      ? `<a class="link" href="${html(value.href)}" style="color:${BRAND}">${html(value.text)}</a>`
      : html(value.text);
const valueText = (value: Value) =>
  typeof value === 'string' ? value : value.href ? `${value.text} (${value.href})` : value.text;

const shown = (facts: [string, Value | null | undefined][]) =>
  facts.filter(
    (fact): fact is [string, Value] => Boolean(fact[1]) && (typeof fact[1] === 'string' || Boolean(fact[1]!.text)),
  );

function linesHtml({ head, rows, more, total }: Extract<Block, { lines: unknown }>['lines']): string {
  const cell = `class="rule" style="padding:10px 0;border-bottom:1px solid ${RULE};vertical-align:top`;
  const line = (row: LetterLine) =>
    `<tr><td ${cell};word-break:break-word"><strong>${html(row.name)}</strong><br>` +
    `<span class="muted" style="color:${MUTED};font-size:13px">${html(head[0]!)} ${html(row.art)} · ${html(row.color)} · ${html(row.size)}</span></td>` +
    `<td ${cell};text-align:right;white-space:nowrap;padding-left:12px">` +
    `<span class="muted" style="color:${MUTED};font-size:13px">${html(row.quantity)} × ${html(row.price)}</span><br>` +
    `<strong>${html(row.sum)}</strong></td></tr>`;
  const rest = more
    ? `<tr><td colspan="2" ${cell}"><a class="link" href="${html(more.href)}" style="color:${BRAND}">${html(moreLines(more.count))}</a></td></tr>`
    : '';
  return (
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:16px 0">` +
    `${rows.map(line).join('')}${rest}` +
    `<tr><td style="padding:12px 0 0;font-size:16px"><strong>Итого</strong></td>` +
    `<td style="padding:12px 0 0;text-align:right;white-space:nowrap;font-size:16px"><strong>${html(total)}</strong></td></tr></table>`
  );
}

function blockHtml(block: Block): string {
  if ('paragraph' in block) return `<p style="margin:0 0 12px">${html(block.paragraph)}</p>`;
  if ('facts' in block) {
    const rows = shown(block.facts).map(
      ([label, value]) =>
        `<tr><td class="muted" style="padding:3px 12px 3px 0;color:${MUTED};vertical-align:top;white-space:nowrap">${html(label)}</td>` +
        `<td style="padding:3px 0;word-break:break-word">${valueHtml(value)}</td></tr>`,
    );
    return `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 12px">${rows.join('')}</table>`;
  }
  if ('note' in block) {
    return (
      `<div class="note" style="margin:0 0 12px;padding:10px 14px;background:#fbeef2;border-left:4px solid ${BRAND}">` +
      `<div class="muted" style="color:${MUTED};font-size:13px">${html(block.note.label)}</div>` +
      `<div style="word-break:break-word">${htmlLines(block.note.text)}</div></div>`
    );
  }
  return linesHtml(block.lines);
}

function blockText(block: Block): string {
  if ('paragraph' in block) return block.paragraph;
  if ('facts' in block)
    return shown(block.facts)
      .map(([label, value]) => `${label}: ${valueText(value)}`)
      .join('\n');
  if ('note' in block) return `${block.note.label}:\n${block.note.text}`;
  const { head, rows, more, total } = block.lines;
  const lines = rows.map(
    (row, index) =>
      `${index + 1}. ` +
      [row.art, row.name, row.color, row.size, row.price, row.quantity, row.sum]
        .map((value, column) => `${head[column]}: ${value}`)
        .join(', '),
  );
  if (more) lines.push(`…${moreLines(more.count)}: ${more.href}`);
  return [...lines, `Итого: ${total}`].join('\n');
}

export interface LetterContent {
  subject: string;
  heading: string;
  blocks: Block[];
  /** Where the button leads, a path on the storefront, and what it says. */
  link: { path: string; label: string };
  /** The subject a question about it is written under (an order's number), for the contact's mailto link. */
  about?: string;
  /** The buyer's company's personal manager, named at the end of every letter to its employees. */
  manager?: ManagerContact | null;
}

/**
 * A one-line field as someone typed it, its line breaks made spaces: a name, phone, company or
 * address with CR/LF would otherwise start lines of its own in the text part («Статус: Оплачен»),
 * forged into a letter.
 */
export const oneLine = (value: string | null) => value?.replace(/[\r\n\u0085\u2028\u2029]+/g, ' ') ?? null;

/** «Ваш персональный менеджер» and how to reach them. */
function managerBlock(manager: ManagerContact): Block {
  return {
    facts: [
      ['Ваш персональный менеджер', oneLine(manager.name)],
      [
        'Телефон',
        manager.phone && { text: oneLine(manager.phone)!, href: `tel:${manager.phone.replace(/[^\d+]/g, '')}` },
      ],
      ['E-mail', { text: manager.email, href: `mailto:${manager.email}` }],
      ['Мессенджер', manager.messenger_url && { text: manager.messenger_url, href: manager.messenger_url }],
    ],
  };
}

/**
 * The whole message, HTML and plain text: the shop's name on its colour at the top, the content,
 * a button back to the shop, whom to write to, and the shop's contacts. One column at most 600 px
 * wide that narrows with the screen, laid out with tables and inline styles (what mail programs
 * keep), and dark colours for programs that follow the system's dark mode.
 */
export function letter(shop: ShopMail, { manager, ...written }: LetterContent): Letter {
  const content = { ...written, blocks: manager ? [...written.blocks, managerBlock(manager)] : written.blocks };
  const href = new URL(content.link.path, shop.shopUrl).toString();
  const mailto = `mailto:${shop.contactEmail}${content.about ? `?subject=${encodeURIComponent(content.about)}` : ''}`;
  const write = `Вопросы${content.about ? ' по заказу' : ''} — пишите на ${shop.contactEmail}${content.about ? `, указав «${content.about}» в теме` : ''}.`;
  const contacts = `${SHOP_LOCATION}. ${SHOP_HOURS}.`;
  const body = [
    `<!doctype html><html lang="ru"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    '<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">',
    `<title>${html(content.subject)}</title><style>${DARK_MODE}</style></head>`,
    `<body class="page" style="margin:0;padding:0;background:#f4f4f4;${FONT}">`,
    `<table role="presentation" class="page" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f4"><tr><td align="center" style="padding:16px 8px">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;border-collapse:collapse">`,
    `<tr><td class="head" style="background:${BRAND};padding:16px 24px;${FONT}">`,
    `<a href="${html(shop.shopUrl)}" style="color:#ffffff;text-decoration:none;font-size:22px;font-weight:bold">${html(SHOP_NAME)}</a>`,
    `<div style="color:#ffffff;font-size:13px">мягкие игрушки оптом</div></td></tr>`,
    `<tr><td class="card" style="background:#ffffff;color:${TEXT};padding:24px;${FONT};font-size:15px;line-height:1.5">`,
    `<h1 style="margin:0 0 16px;font-size:21px;line-height:1.3">${html(content.heading)}</h1>`,
    ...content.blocks.map(blockHtml),
    `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:20px 0"><tr><td style="background:${BRAND};border-radius:6px">`,
    `<a href="${html(href)}" style="display:inline-block;padding:12px 24px;color:#ffffff;font-weight:bold;text-decoration:none;${FONT}">${html(content.link.label)}</a>`,
    '</td></tr></table>',
    `<p style="margin:0">Вопросы${content.about ? ' по заказу' : ''} — пишите на <a class="link" href="${html(mailto)}" style="color:${BRAND}">${html(shop.contactEmail)}</a>` +
      `${content.about ? `, указав «${html(content.about)}» в теме` : ''}.</p>`,
    '</td></tr>',
    `<tr><td class="muted" style="padding:16px 24px;color:${MUTED};font-size:12px;line-height:1.5;${FONT}">`,
    `«${html(SHOP_NAME)}» — мягкие игрушки оптом. ${html(contacts)} `,
    `<a class="link" href="${html(shop.shopUrl)}" style="color:${MUTED}">${html(shop.shopUrl)}</a></td></tr>`,
    '</table></td></tr></table></body></html>',
  ].join('');
  const text = [
    `«${SHOP_NAME}» — мягкие игрушки оптом`,
    content.heading,
    ...content.blocks.map(blockText),
    `${content.link.label}: ${href}`,
    write,
    `--\n«${SHOP_NAME}» — мягкие игрушки оптом. ${contacts} Вопросы: ${shop.contactEmail}\n${shop.shopUrl}`,
  ].join('\n\n');
  return { subject: `${content.subject} — ${SHOP_NAME}`, html: body, text: `${text}\n` };
}

// Every message the shop sends has one shape: a heading, blocks of content, a link back to the shop
// and its contacts. Each block is written once and rendered twice, as HTML and as the plain-text
// part, so the two cannot say different things. Every value is escaped: names, addresses and
// comments are typed by buyers.
import type { AppConfig } from '../config';
import { SHOP_NAME } from '../../shared/page-titles';
import { SHOP_HOURS, SHOP_LOCATION } from '../../shared/shop-contacts';
import { SHOP_TIME_ZONE } from '../moscow-time';
import { escapeHtml } from '../services/page-head';

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

export type Block =
  | { paragraph: string }
  /** Label and value pairs; a pair without a value is left out. */
  | { facts: [label: string, value: string | null | undefined][] }
  | { table: { head: string[]; rows: string[][]; total: [label: string, value: string] } };

const moment = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'long', timeStyle: 'short', timeZone: SHOP_TIME_ZONE });

/** «24 ноября 2026 г. в 15:04», Moscow time. */
export const formatMoment = (instant: Date) => `${moment.format(instant)} (мск)`;

const CELL = 'padding:4px 8px;border:1px solid #ddd;text-align:left';

function blockHtml(block: Block): string {
  if ('paragraph' in block) return `<p>${escapeHtml(block.paragraph)}</p>`;
  if ('facts' in block) {
    const rows = block.facts
      .filter(([, value]) => value)
      .map(
        ([label, value]) =>
          `<tr><th style="${CELL}">${escapeHtml(label)}</th><td style="${CELL}">${escapeHtml(value!)}</td></tr>`,
      );
    return `<table style="border-collapse:collapse">${rows.join('')}</table>`;
  }
  const { head, rows, total } = block.table;
  const cells = (values: string[], tag: 'th' | 'td') =>
    `<tr>${values.map((value) => `<${tag} style="${CELL}">${escapeHtml(value)}</${tag}>`).join('')}</tr>`;
  return (
    `<table style="border-collapse:collapse">${cells(head, 'th')}${rows.map((row) => cells(row, 'td')).join('')}` +
    `<tr><th style="${CELL}" colspan="${head.length - 1}">${escapeHtml(total[0])}</th><th style="${CELL}">${escapeHtml(total[1])}</th></tr></table>`
  );
}

function blockText(block: Block): string {
  if ('paragraph' in block) return block.paragraph;
  if ('facts' in block) {
    return block.facts
      .filter(([, value]) => value)
      .map(([label, value]) => `${label}: ${value}`)
      .join('\n');
  }
  const { head, rows, total } = block.table;
  const lines = rows.map((row) => row.map((value, index) => `${head[index]}: ${value}`).join(', '));
  return [...lines.map((line, index) => `${index + 1}. ${line}`), `${total[0]}: ${total[1]}`].join('\n');
}

export interface LetterContent {
  subject: string;
  heading: string;
  blocks: Block[];
  /** Where the link back leads, a path on the storefront, and what it says. */
  link: { path: string; label: string };
}

/** The whole message, HTML and plain text, with the shop's name, contacts and a link back. */
export function letter(shop: ShopMail, content: LetterContent): Letter {
  const href = new URL(content.link.path, shop.shopUrl).toString();
  const contacts = `${SHOP_LOCATION}. ${SHOP_HOURS}. Вопросы: ${shop.contactEmail}`;
  const html = [
    '<!doctype html><html lang="ru"><head><meta charset="utf-8"></head>',
    '<body style="font-family:Arial,sans-serif;font-size:14px;color:#222">',
    `<h2>${escapeHtml(content.heading)}</h2>`,
    ...content.blocks.map(blockHtml),
    `<p><a href="${escapeHtml(href)}">${escapeHtml(content.link.label)}</a></p>`,
    `<hr><p style="color:#666;font-size:12px">«${escapeHtml(SHOP_NAME)}» — мягкие игрушки оптом. ${escapeHtml(SHOP_LOCATION)}. ${escapeHtml(SHOP_HOURS)}. `,
    `Вопросы: <a href="mailto:${escapeHtml(shop.contactEmail)}">${escapeHtml(shop.contactEmail)}</a>. `,
    `<a href="${escapeHtml(shop.shopUrl)}">${escapeHtml(shop.shopUrl)}</a></p>`,
    '</body></html>',
  ].join('');
  const text = [
    content.heading,
    ...content.blocks.map(blockText),
    `${content.link.label}: ${href}`,
    `--\n«${SHOP_NAME}» — мягкие игрушки оптом. ${contacts}\n${shop.shopUrl}`,
  ].join('\n\n');
  return { subject: `${content.subject} — ${SHOP_NAME}`, html, text: `${text}\n` };
}

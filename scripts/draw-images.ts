/**
 * Генератор SVG-картинок для демонстрационного каталога «Мягкого Опта».
 *
 * Чистые функции: товар → строка SVG. Рисунки плоские, из кругов, эллипсов
 * и путей, окрашены в цвет первого варианта товара. Всё детерминировано.
 *
 * Запуск из командной строки записывает все картинки в src/server/assets/images/:
 *   npm run draw-images
 * Сервер картинки только отдаёт, поэтому генератор лежит в scripts/, вне сборки сервера.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

import { aboutImage, seedBanners, seedProducts, type SeedProduct } from '../src/server/db/seed/catalogue';

/* ------------------------------------------------------------------------ */
/* Цвета                                                                     */
/* ------------------------------------------------------------------------ */

/** Русские названия цветов → hex. */
export const colorHex: Record<string, string> = {
  бежевый: '#e8d2ae',
  коричневый: '#a9774f',
  карамельный: '#d39b63',
  белый: '#faf7f2',
  молочный: '#f5ecdb',
  серый: '#bcbfc9',
  графитовый: '#6d717c',
  розовый: '#f5b3c7',
  красный: '#e8676b',
  персиковый: '#f8c39f',
  оранжевый: '#f4a35c',
  рыжий: '#e98b4e',
  жёлтый: '#f7d96a',
  зелёный: '#8fcd86',
  мятный: '#a6e3cd',
  бирюзовый: '#63cdc4',
  голубой: '#a6d3f2',
  синий: '#6f9edf',
  лавандовый: '#cbb7ec',
  фиолетовый: '#a98bd8',
};

const INK = '#33272a';
const WHITE = '#ffffff';
const BLUSH = '#f59ab0';
const GOLD = '#f6c945';
const RED = '#e4575e';
const BACKGROUNDS = ['#fde8ee', '#e5f2fb', '#e8f6ec', '#fff3d9', '#eee8fb', '#fdece0', '#e3f5f3'];
const RAINBOW = ['#f59ab0', '#f9cf6a', '#9fdcbf', '#9fc8f0', '#c4a9ec'];

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function mix(a: string, b: string, t: number): string {
  const [r1, g1, b1] = rgb(a);
  const [r2, g2, b2] = rgb(b);
  const ch = (u: number, v: number): string =>
    Math.round(u + (v - u) * t)
      .toString(16)
      .padStart(2, '0');
  return `#${ch(r1, r2)}${ch(g1, g2)}${ch(b1, b2)}`;
}

/** Элемент списка по кругу; для непустых списков-констант. */
function pick<T>(list: readonly T[], i: number): T {
  const v = list[((i % list.length) + list.length) % list.length];
  if (v === undefined) throw new Error('pick() из пустого списка');
  return v;
}

/** hex по русскому названию цвета (неизвестный цвет → бежевый). */
function hex(name: string): string {
  return colorHex[name] ?? '#e8d2ae';
}

function distance(a: string, b: string): number {
  const x = rgb(a);
  const y = rgb(b);
  return Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
}

interface Palette {
  main: string;
  light: string;
  shade: string;
  line: string;
}

function palette(main: string): Palette {
  const veryLight = distance(main, WHITE) < 40;
  return {
    main,
    light: veryLight ? mix(main, '#eadccb', 0.55) : mix(main, WHITE, 0.55),
    shade: mix(main, '#4a3030', 0.22),
    line: mix(main, '#3a2a2a', 0.62),
  };
}

/* ------------------------------------------------------------------------ */
/* Примитивы                                                                 */
/* ------------------------------------------------------------------------ */

const n = (v: number): string => String(Math.round(v));
const NS = ' stroke="none"';
const rot = (deg: number, cx: number, cy: number): string => ` transform="rotate(${n(deg)} ${n(cx)} ${n(cy)})"`;

function C(cx: number, cy: number, r: number, fill: string, a = ''): string {
  return `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${fill}"${a}/>`;
}

function E(cx: number, cy: number, rx: number, ry: number, fill: string, a = ''): string {
  return `<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(rx)}" ry="${n(ry)}" fill="${fill}"${a}/>`;
}

function P(d: string, fill: string, a = ''): string {
  return `<path d="${d}" fill="${fill}"${a}/>`;
}

function R(x: number, y: number, w: number, h: number, rx: number, fill: string, a = ''): string {
  return `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" rx="${n(rx)}" fill="${fill}"${a}/>`;
}

/** Линия цветом `color` без заливки. */
function L(d: string, color: string, width: number): string {
  return `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}"/>`;
}

/** «Трубка» с контуром: хвосты, хоботы, щупальца, шеи. */
function tube(d: string, width: number, fill: string, line: string): string {
  return L(d, line, width + 14) + L(d, fill, width);
}

/** Объединение фигур с общим внешним контуром (облака, шерсть овечки). */
function blob(shapes: string[]): string {
  return `<g stroke-width="14">${shapes.join('')}</g><g stroke="none">${shapes.join('')}</g>`;
}

function star(cx: number, cy: number, r1: number, r2: number, points = 5): string {
  let d = '';
  for (let i = 0; i < points * 2; i++) {
    const a = (Math.PI * i) / points - Math.PI / 2;
    const r = i % 2 ? r2 : r1;
    d += `${i ? 'L' : 'M'}${n(cx + r * Math.cos(a))} ${n(cy + r * Math.sin(a))}`;
  }
  return d + 'Z';
}

function heart(cx: number, cy: number, s: number): string {
  return (
    `M${n(cx)} ${n(cy + 40 * s)}C${n(cx - 70 * s)} ${n(cy)} ${n(cx - 50 * s)} ${n(cy - 50 * s)} ${n(cx)} ${n(cy - 22 * s)}` +
    `C${n(cx + 50 * s)} ${n(cy - 50 * s)} ${n(cx + 70 * s)} ${n(cy)} ${n(cx)} ${n(cy + 40 * s)}Z`
  );
}

/* ------------------------------------------------------------------------ */
/* Мордочка, голова, тело                                                    */
/* ------------------------------------------------------------------------ */

interface FaceOpts {
  muzzle?: string | false;
  mouth?: 'smile' | 'open' | 'none';
  sleepy?: boolean;
  nose?: string;
  whiskers?: boolean;
  eyes?: number; // размер глаз, 1 — обычный
  gap?: number; // расстояние между глазами, 1 — обычное
  patches?: string; // «очки» панды / маска енота
  band?: string; // полоса-маска енота
}

function face(cx: number, cy: number, s: number, f: FaceOpts = {}): string {
  let out = '';
  const ex = 44 * s * (f.gap ?? 1);
  const ey = cy - 6 * s;
  if (f.patches) {
    for (const k of [-1, 1])
      out += E(cx + k * ex, ey + 4 * s, 27 * s, 33 * s, f.patches, NS + rot(k * -25, cx + k * ex, ey));
  }
  if (f.band) out += E(cx, ey, 90 * s, 24 * s, f.band, NS);
  if (f.muzzle) out += E(cx, cy + 32 * s, 54 * s, 40 * s, f.muzzle, NS);
  for (const k of [-1, 1]) {
    const x = cx + k * ex;
    if (f.sleepy) {
      out += L(`M${n(x - 13 * s)} ${n(ey)}q${n(13 * s)} ${n(13 * s)} ${n(26 * s)} 0`, INK, 6 * s);
    } else {
      const r = 13 * s * (f.eyes ?? 1);
      out += C(x, ey, r, INK, NS) + C(x + r * 0.35, ey - r * 0.38, r * 0.36, WHITE, NS);
    }
    out += E(cx + k * 74 * s, cy + 28 * s, 17 * s, 11 * s, BLUSH, NS + ' opacity=".6"');
    if (f.whiskers) {
      for (const w of [-1, 1]) {
        out += L(`M${n(cx + k * 62 * s)} ${n(cy + 26 * s)}l${n(k * 50 * s)} ${n(w * 10 * s)}`, INK, 3);
      }
    }
  }
  out += E(cx, cy + 18 * s, 14 * s, 10 * s, f.nose ?? INK, NS);
  if (f.mouth === 'open') {
    out += P(
      `M${n(cx - 16 * s)} ${n(cy + 34 * s)}q${n(16 * s)} ${n(26 * s)} ${n(32 * s)} 0z`,
      '#e46f7c',
      ` stroke="${INK}" stroke-width="4"`,
    );
  } else if (f.mouth !== 'none') {
    out += L(
      `M${n(cx)} ${n(cy + 26 * s)}v${n(8 * s)}M${n(cx - 17 * s)} ${n(cy + 35 * s)}q${n(8 * s)} ${n(9 * s)} ${n(17 * s)} 0q${n(9 * s)} ${n(9 * s)} ${n(17 * s)} 0`,
      INK,
      Math.max(3, 5 * s),
    );
  }
  return out;
}

type Ears = 'round' | 'long' | 'pointed' | 'floppy' | 'horse' | 'none';

interface HeadOpts extends FaceOpts {
  ears: Ears;
  earColor?: string;
  inner?: string;
  /** Нарисовать одно ухо другим цветом (Бим — чёрное ухо). */
  oddEar?: string;
}

function head(cx: number, cy: number, r: number, pal: Palette, o: HeadOpts): string {
  const s = r / 120;
  const ec = o.earColor ?? pal.main;
  const inner = o.inner ?? pal.light;
  let back = '';
  let front = '';
  for (const k of [-1, 1]) {
    const col = k === 1 && o.oddEar ? o.oddEar : ec;
    switch (o.ears) {
      case 'round':
        back +=
          C(cx + k * r * 0.72, cy - r * 0.72, r * 0.36, col) + C(cx + k * r * 0.72, cy - r * 0.72, r * 0.19, inner, NS);
        break;
      case 'long': {
        const x = cx + k * r * 0.4;
        const y = cy - r * 1.3;
        back += E(x, y, r * 0.27, r * 0.75, col, rot(k * 12, x, y + r * 0.6));
        back += E(x, y + r * 0.06, r * 0.13, r * 0.55, inner, NS + rot(k * 12, x, y + r * 0.6));
        break;
      }
      case 'pointed':
        back += P(
          `M${n(cx + k * r * 0.95)} ${n(cy - r * 0.2)}L${n(cx + k * r * 0.78)} ${n(cy - r * 1.18)}L${n(cx + k * r * 0.15)} ${n(cy - r * 0.85)}Z`,
          col,
        );
        back += P(
          `M${n(cx + k * r * 0.78)} ${n(cy - r * 0.45)}L${n(cx + k * r * 0.73)} ${n(cy - r * 0.98)}L${n(cx + k * r * 0.4)} ${n(cy - r * 0.8)}Z`,
          inner,
          NS,
        );
        break;
      case 'horse':
        back += P(
          `M${n(cx + k * r * 0.7)} ${n(cy - r * 0.55)}L${n(cx + k * r * 0.62)} ${n(cy - r * 1.35)}L${n(cx + k * r * 0.22)} ${n(cy - r * 0.85)}Z`,
          col,
        );
        back += P(
          `M${n(cx + k * r * 0.6)} ${n(cy - r * 0.7)}L${n(cx + k * r * 0.58)} ${n(cy - r * 1.12)}L${n(cx + k * r * 0.38)} ${n(cy - r * 0.86)}Z`,
          inner,
          NS,
        );
        break;
      case 'floppy':
        front += E(
          cx + k * r * 0.98,
          cy + r * 0.02,
          r * 0.27,
          r * 0.56,
          col,
          rot(k * -16, cx + k * r * 0.98, cy - r * 0.45),
        );
        break;
      case 'none':
        break;
    }
  }
  return back + C(cx, cy, r, pal.main) + front + face(cx, cy + r * 0.05, s, o);
}

interface BodyOpts {
  belly?: string | false;
  limbs?: string; // цвет лап (панда — чёрные)
  pads?: string | false;
  arms?: boolean;
  /** Одежда поверх живота, под лапами. */
  clothes?: string;
}

/** Сидящее «плюшевое» тело: центр (300, 420). */
function body(pal: Palette, o: BodyOpts = {}): string {
  const limbs = o.limbs ?? pal.main;
  let out = E(300, 420, 122, 112, pal.main);
  if (o.belly !== false) out += E(300, 440, 74, 66, o.belly ?? pal.light, NS);
  if (o.clothes) out += o.clothes;
  for (const k of [-1, 1]) {
    out += E(300 + k * 78, 508, 56, 40, limbs);
    if (o.pads !== false) out += E(300 + k * 78, 512, 30, 22, o.pads ?? pal.light, NS);
  }
  if (o.arms !== false) {
    for (const k of [-1, 1]) out += E(300 + k * 112, 410, 32, 60, limbs, rot(k * -28, 300 + k * 112, 410));
  }
  return out;
}

/* ------------------------------------------------------------------------ */
/* Аксессуары                                                                */
/* ------------------------------------------------------------------------ */

function bow(cx: number, cy: number, s: number, color: string): string {
  return (
    P(`M${n(cx)} ${n(cy)}L${n(cx - 42 * s)} ${n(cy - 24 * s)}L${n(cx - 42 * s)} ${n(cy + 24 * s)}Z`, color) +
    P(`M${n(cx)} ${n(cy)}L${n(cx + 42 * s)} ${n(cy - 24 * s)}L${n(cx + 42 * s)} ${n(cy + 24 * s)}Z`, color) +
    C(cx, cy, 11 * s, color)
  );
}

function flower(cx: number, cy: number, s: number, color: string): string {
  let out = '';
  for (let i = 0; i < 5; i++) {
    const a = (i * 2 * Math.PI) / 5;
    out += C(cx + Math.cos(a) * 16 * s, cy + Math.sin(a) * 16 * s, 12 * s, color);
  }
  return out + C(cx, cy, 9 * s, GOLD, NS);
}

function crown(cx: number, cy: number, s: number): string {
  return (
    P(
      `M${n(cx - 45 * s)} ${n(cy)}l${n(-8 * s)} ${n(-52 * s)}l${n(30 * s)} ${n(28 * s)}l${n(23 * s)} ${n(-40 * s)}l${n(23 * s)} ${n(40 * s)}l${n(30 * s)} ${n(-28 * s)}l${n(-8 * s)} ${n(52 * s)}Z`,
      GOLD,
    ) + C(cx, cy - 14 * s, 7 * s, RED, NS)
  );
}

function scarf(color: string, y = 352): string {
  return (
    R(205, y - 20, 190, 40, 20, color) +
    R(330, y, 36, 90, 14, color, rot(-12, 348, y)) +
    L(`M220 ${y}h160`, mix(color, WHITE, 0.5), 6)
  );
}

function collar(): string {
  return R(215, 342, 170, 28, 14, RED) + C(300, 378, 14, GOLD);
}

/* ------------------------------------------------------------------------ */
/* Виды игрушек                                                              */
/* ------------------------------------------------------------------------ */

export type Kind =
  | 'bear'
  | 'panda'
  | 'bunny'
  | 'cat'
  | 'loafcat'
  | 'dog'
  | 'unicorn'
  | 'horse'
  | 'dragon'
  | 'kolobok'
  | 'frog'
  | 'fox'
  | 'owl'
  | 'hedgehog'
  | 'raccoon'
  | 'elephant'
  | 'giraffe'
  | 'lion'
  | 'tiger'
  | 'wolf'
  | 'whale'
  | 'dolphin'
  | 'shark'
  | 'fish'
  | 'octopus'
  | 'penguin'
  | 'seal'
  | 'turtle'
  | 'crab'
  | 'rattle'
  | 'teether'
  | 'comforter'
  | 'cube'
  | 'mobile'
  | 'book'
  | 'sheep'
  | 'cloud'
  | 'starpillow'
  | 'heartpillow'
  | 'avocado'
  | 'blanket';

/** Основа слова в начале слова (в JS \b не работает с кириллицей). */
function has(name: string, stem: string): boolean {
  return new RegExp(`(^|[^а-яё])${stem}`, 'i').test(name);
}

const KIND_RULES: [string, Kind][] = [
  ['плед', 'blanket'],
  ['погремушк', 'rattle'],
  ['прорезыват', 'teether'],
  ['комфортер', 'comforter'],
  ['мягкий кубик', 'cube'],
  ['мобиль', 'mobile'],
  ['книжк', 'book'],
  ['игрушка-грелка', 'sheep'],
  ['подушка-игрушка кит', 'whale'],
  ['подушка-игрушка облак', 'cloud'],
  ['подушка «звёзд', 'starpillow'],
  ['подушка-сердце', 'heartpillow'],
  ['подушка-обнимашка авокадо', 'avocado'],
  ['панд', 'panda'],
  ['кот батон', 'loafcat'],
  ['единорог', 'unicorn'],
  ['конёк', 'horse'],
  ['дракон', 'dragon'],
  ['дракош', 'dragon'],
  ['змей', 'dragon'],
  ['колобок', 'kolobok'],
  ['царевна-лягушк', 'frog'],
  ['миш', 'bear'],
  ['медвед', 'bear'],
  ['медвеж', 'bear'],
  ['зай', 'bunny'],
  ['заяц', 'bunny'],
  ['зайч', 'bunny'],
  ['крол', 'bunny'],
  ['кот', 'cat'],
  ['кош', 'cat'],
  ['щен', 'dog'],
  ['пёс', 'dog'],
  ['собач', 'dog'],
  ['мопс', 'dog'],
  ['далматин', 'dog'],
  ['лис', 'fox'],
  ['сова', 'owl'],
  ['ёжик', 'hedgehog'],
  ['енот', 'raccoon'],
  ['слон', 'elephant'],
  ['жираф', 'giraffe'],
  ['лев', 'lion'],
  ['тигр', 'tiger'],
  ['волч', 'wolf'],
  ['кит', 'whale'],
  ['дельфин', 'dolphin'],
  ['акул', 'shark'],
  ['рыб', 'fish'],
  ['осьмин', 'octopus'],
  ['пингвин', 'penguin'],
  ['тюлен', 'seal'],
  ['черепах', 'turtle'],
  ['краб', 'crab'],
];

export function productKind(name: string): Kind {
  for (const [stem, kind] of KIND_RULES) if (has(name, stem)) return kind;
  return 'bear';
}

/** Цвет по умолчанию, если у товара нет вариантов. */
const KIND_DEFAULT: Partial<Record<Kind, string>> = {
  dog: 'коричневый',
  dragon: 'лавандовый',
  crab: 'красный',
  book: 'мятный',
  frog: 'зелёный',
  fox: 'рыжий',
};

interface Ctx {
  name: string;
  pal: Palette;
  is: (stem: string) => boolean;
}

/* ---- мишки, зайцы, котики, собачки ---- */

function drawBear({ pal, is }: Ctx): string {
  const sleepy = is('соня');
  let out = body(pal) + head(300, 235, 125, pal, { ears: 'round', muzzle: pal.light, sleepy });
  if (is('тедди')) out += bow(300, 362, 1, RED);
  if (is('сердечк')) out += P(heart(300, 440, 1.4), RED) + L('M270 430h60', WHITE, 5);
  if (is('михалыч')) out += scarf(RED);
  if (sleepy) {
    const cap = mix(pal.main, WHITE, 0.35);
    out += P('M200 170C230 80 330 50 420 60C400 90 380 120 390 160Z', cap, rot(-8, 300, 140)) + C(428, 60, 22, WHITE);
    out += R(190, 150, 215, 36, 18, WHITE, rot(-8, 300, 170));
  }
  if (is('бублик')) out += P(heart(300, 440, 0.8), mix(pal.main, RED, 0.35), NS);
  return out;
}

function drawPanda({ pal }: Ctx): string {
  return (
    body(pal, { limbs: INK, pads: false }) +
    head(300, 235, 125, pal, { ears: 'round', earColor: INK, inner: '#5a4c4f', patches: INK, muzzle: false })
  );
}

function drawBunny({ pal, is }: Ctx): string {
  let out = '';
  if (is('платье') || is('балерин')) {
    const dress = is('балерин') ? '#f9c9d8' : mix(pal.main, '#d0567a', 0.35);
    out += E(300, 425, 120, 108, pal.main);
    out += P('M210 390Q300 360 390 390L440 500Q300 540 160 500Z', dress);
    for (const k of [-1, 1]) out += E(300 + k * 75, 515, 46, 30, WHITE);
    for (const k of [-1, 1]) out += E(300 + k * 112, 405, 30, 56, pal.main, rot(k * -28, 300 + k * 112, 405));
  } else {
    let clothes = '';
    if (is('комбинезон'))
      clothes =
        P('M205 400H395L400 470Q300 500 200 470Z', '#6f9edf') +
        R(270, 415, 60, 40, 8, '#8fb5ea') +
        L('M225 400L230 330M375 400L370 330', '#6f9edf', 16);
    if (is('прыгунок')) clothes = L('M205 375H395M183 410H417M183 445H417M200 480H400', '#7fb3e8', 16);
    out += body(pal, { clothes });
  }
  out += head(300, 255, 115, pal, { ears: 'long', inner: '#f7bfd0', muzzle: WHITE, nose: '#e77f98' });
  if (is('морковк'))
    out +=
      P('M300 420L360 540L250 450Z', '#f29a4a', rot(-30, 300, 470)) +
      P('M300 410l-20-40M305 410l5-45M310 410l30-30', 'none', ' stroke="#6cbf63" stroke-width="10"');
  if (is('фиалк')) out += flower(372, 130, 1, '#a98bd8');
  if (is('платье')) out += bow(300, 378, 0.7, WHITE);
  return out;
}

function drawCat({ pal, is }: Ctx): string {
  let out = tube('M400 480C500 480 520 400 480 340', 32, pal.main, pal.line) + body(pal);
  if (is('сапог')) out += E(222, 520, 60, 40, RED) + E(378, 520, 60, 40, RED);
  const ginger = is('мурзик') || is('персик');
  out += head(300, 245, 120, pal, {
    ears: 'pointed',
    inner: '#f7bfd0',
    whiskers: true,
    nose: '#e77f98',
    muzzle: pal.light,
  });
  if (ginger || is('батон')) out += L('M280 135l5 30M300 130v32M320 135l-5 30', pal.shade, 9);
  if (is('мими')) out += bow(205, 150, 0.75, '#f07aa0');
  if (is('сапог')) {
    out +=
      E(300, 140, 170, 26, '#7b5a8c') +
      P('M220 140C225 50 375 50 380 140Z', '#7b5a8c') +
      P('M370 100C430 40 470 70 480 30', 'none', ` stroke="${RED}" stroke-width="14"`);
  }
  return out;
}

function drawLoafCat({ pal }: Ctx): string {
  return (
    tube('M505 430C570 430 560 330 520 330', 30, pal.main, pal.line) +
    R(80, 260, 440, 220, 110, pal.main) +
    L('M330 262v40M380 262v40M430 268v36', pal.shade, 12) +
    E(260, 440, 110, 34, pal.light, NS) +
    head(200, 330, 100, pal, { ears: 'pointed', inner: '#f7bfd0', whiskers: true, nose: '#e77f98', sleepy: true })
  );
}

function drawDog({ pal, is }: Ctx): string {
  const pug = is('мопс');
  const dalmatian = is('далматин');
  let out = tube('M400 470C470 470 470 400 440 390', 26, pal.main, pal.line) + body(pal);
  if (dalmatian) out += C(230, 420, 14, INK, NS) + C(355, 390, 11, INK, NS) + C(330, 470, 9, INK, NS);
  out += collar();
  out += head(300, 240, 122, pal, {
    ears: 'floppy',
    earColor: pug ? '#5b4538' : dalmatian ? INK : pal.shade,
    oddEar: is('бим') ? INK : undefined,
    muzzle: pug ? '#6b5446' : pal.light,
    mouth: 'open',
  });
  if (dalmatian) out += C(250, 160, 12, INK, NS) + C(355, 175, 9, INK, NS);
  if (is('бим')) out += C(262, 228, 26, INK, NS + ' opacity=".25"');
  if (pug) out += L('M270 150q30-14 60 0M278 172q22-10 44 0', pal.shade, 6);
  return out;
}

/* ---- сказочные ---- */

function mane(pal: Palette, rainbow: boolean): string {
  const cols = rainbow ? RAINBOW : [pal.shade, mix(pal.shade, WHITE, 0.3)];
  let out = '';
  const spots: [number, number, number][] = [
    [300, 118, 40],
    [250, 126, 34],
    [350, 126, 34],
    [200, 160, 32],
    [180, 210, 30],
    [188, 262, 28],
  ];
  spots.forEach(([x, y, r], i) => (out += C(x, y, r, pick(cols, i))));
  return out;
}

function drawUnicorn(ctx: Ctx, horn = true): string {
  const { pal, is } = ctx;
  let out = body(pal, { pads: mix(pal.main, '#8a6a4a', 0.5) });
  out += head(300, 245, 118, pal, { ears: 'horse', muzzle: false, mouth: 'none' });
  out +=
    E(300, 305, 74, 50, pal.light) +
    E(275, 298, 7, 10, INK, NS) +
    E(325, 298, 7, 10, INK, NS) +
    L('M285 325q15 10 30 0', INK, 5);
  out += mane(pal, horn);
  if (horn) out += P('M282 140L300 40L318 140Z', GOLD) + L('M286 118L313 108M291 90L309 84', '#e0a82a', 5);
  if (is('звёздочк')) out += P(star(240, 430, 22, 10), GOLD, NS) + P(star(365, 470, 16, 7), GOLD, NS);
  return out;
}

function drawDragon({ pal, is }: Ctx): string {
  const wing = mix(pal.main, '#6b4ba8', 0.25);
  let out =
    P('M210 360C120 280 80 330 90 400C130 380 160 410 200 420Z', wing) +
    P('M390 360C480 280 520 330 510 400C470 380 440 410 400 420Z', wing);
  out +=
    tube('M390 480C480 500 520 440 500 400', 30, pal.main, pal.line) +
    body(pal, { belly: mix(pal.main, GOLD, 0.5) }) +
    L('M250 420h100M245 450h110', pal.shade, 5);
  const heads: [number, number, number][] = is('горыныч')
    ? [
        [180, 215, 80],
        [300, 175, 88],
        [420, 215, 80],
      ]
    : [[300, 235, 120]];
  for (const [x, y, r] of heads) {
    out += P(`M${n(x - r * 0.5)} ${n(y - r * 0.75)}l${n(-r * 0.2)} ${n(-r * 0.5)}l${n(r * 0.45)} ${n(r * 0.3)}Z`, GOLD);
    out += P(`M${n(x + r * 0.5)} ${n(y - r * 0.75)}l${n(r * 0.2)} ${n(-r * 0.5)}l${n(-r * 0.45)} ${n(r * 0.3)}Z`, GOLD);
    out += head(x, y, r, pal, { ears: 'none', muzzle: pal.light, nose: pal.shade });
  }
  return out;
}

function drawKolobok(): string {
  const yellow = hex('жёлтый');
  return (
    C(300, 320, 200, yellow) +
    E(230, 220, 50, 30, WHITE, NS + ' opacity=".45"' + rot(-35, 230, 220)) +
    face(300, 330, 1.6, { mouth: 'open', muzzle: false })
  );
}

function drawFrog({ pal }: Ctx): string {
  let out = E(300, 450, 140, 95, pal.main) + E(300, 465, 85, 60, pal.light, NS);
  for (const k of [-1, 1]) out += E(300 + k * 120, 525, 60, 26, pal.main);
  out += C(215, 200, 58, pal.main) + C(385, 200, 58, pal.main);
  out += E(300, 300, 185, 120, pal.main);
  for (const k of [-1, 1])
    out +=
      C(300 + k * 85, 195, 36, WHITE, NS) + C(300 + k * 85, 200, 20, INK, NS) + C(300 + k * 85 + 7, 192, 7, WHITE, NS);
  out += L('M220 320Q300 380 380 320', INK, 7);
  out += E(200, 330, 24, 14, BLUSH, NS + ' opacity=".7"') + E(400, 330, 24, 14, BLUSH, NS + ' opacity=".7"');
  out += crown(300, 175, 0.9);
  return out;
}

/* ---- лесные и дикие ---- */

function drawFox({ pal, is }: Ctx): string {
  const wolf = is('волч');
  const raccoon = is('енот');
  let out = '';
  if (raccoon) {
    const d = 'M380 480C470 490 510 420 480 320';
    out +=
      tube(d, 56, pal.main, pal.line) +
      L(d, '#5b5560', 56).replace('/>', ' stroke-linecap="butt" stroke-dasharray="24 24" stroke-dashoffset="-30"/>');
  } else {
    out += P('M380 470C520 520 560 360 470 280C450 350 420 400 380 430Z', pal.main);
    out += P('M470 280C520 320 540 350 530 390C500 370 475 330 470 280Z', WHITE, NS);
  }
  out += body(pal, { belly: WHITE });
  out += head(300, 240, 120, pal, {
    ears: 'pointed',
    inner: raccoon ? WHITE : INK,
    muzzle: WHITE,
    patches: raccoon ? '#5b5560' : undefined,
    band: raccoon ? '#5b5560' : undefined,
    whiskers: !wolf,
  });
  if (wolf) out += L('M265 140l15 20M300 130v24M335 140l-15 20', pal.shade, 8);
  return out;
}

function drawOwl({ pal, is }: Ctx): string {
  let out = P('M200 150L185 80L250 120Z', pal.main) + P('M400 150L415 80L350 120Z', pal.main);
  out += E(300, 330, 165, 205, pal.main);
  for (const k of [-1, 1]) out += E(300 + k * 160, 370, 40, 95, pal.shade, rot(k * -12, 300 + k * 160, 370));
  out += E(300, 400, 105, 125, pal.light, NS);
  for (let r = 0; r < 3; r++)
    for (let c = -1; c <= 1; c++) out += L(`M${285 + c * 50} ${370 + r * 45}q15 14 30 0`, pal.shade, 5);
  for (const k of [-1, 1]) {
    out +=
      C(300 + k * 68, 245, 62, WHITE) + C(300 + k * 68, 250, 30, INK, NS) + C(300 + k * 68 + 10, 240, 10, WHITE, NS);
  }
  out += P('M285 290L315 290L300 320Z', '#f3a04a');
  for (const k of [-1, 1])
    out += L(`M${300 + k * 55} 525l-14 22M${300 + k * 55} 525v26M${300 + k * 55} 525l14 22`, '#f3a04a', 8);
  if (is('умниц'))
    out +=
      P('M190 140L300 95L410 140L300 185Z', '#3f3f56') +
      R(255, 140, 90, 35, 6, '#3f3f56') +
      L('M400 140v55', GOLD, 6) +
      C(400, 200, 10, GOLD, NS);
  return out;
}

function drawHedgehog({ pal }: Ctx): string {
  const spikes = star(300, 330, 235, 185, 18);
  const skin = mix(pal.main, '#f6e3c8', 0.75);
  let out = P(spikes, pal.shade);
  for (const k of [-1, 1]) out += E(300 + k * 90, 525, 50, 30, skin);
  out += E(300, 350, 150, 165, skin);
  out += face(300, 330, 1.25, { muzzle: false });
  out += C(230, 180, 16, '#e4575e') + P('M230 165q6-14 16-16', 'none', ` stroke="#6cbf63" stroke-width="6"`);
  return out;
}

function drawElephant({ pal }: Ctx): string {
  let out = body(pal);
  for (const k of [-1, 1])
    out += E(300 + k * 135, 230, 88, 105, pal.main) + E(300 + k * 140, 235, 55, 72, '#f7bfd0', NS);
  out += C(300, 235, 118, pal.main);
  out += tube('M300 270C300 360 320 400 365 380', 44, pal.main, pal.line);
  out += face(300, 205, 1, { muzzle: false, mouth: 'none', nose: 'none' });
  return out;
}

function drawGiraffe({ pal }: Ctx): string {
  const spot = mix(pal.main, '#8a4f24', 0.45);
  let out = body(pal, { arms: false });
  out += R(255, 150, 90, 260, 40, pal.main);
  out +=
    C(245, 440, 22, spot, NS) +
    C(355, 470, 18, spot, NS) +
    C(300, 230, 14, spot, NS) +
    C(320, 300, 17, spot, NS) +
    C(280, 360, 15, spot, NS);
  out += L('M265 80L255 40M335 80L345 40', pal.line, 10) + C(254, 38, 12, spot) + C(346, 38, 12, spot);
  for (const k of [-1, 1]) out += E(300 + k * 105, 115, 36, 16, pal.main, rot(k * 20, 300 + k * 105, 115));
  out += E(300, 130, 95, 80, pal.main);
  out += E(300, 165, 62, 38, pal.light, NS);
  out += face(300, 120, 0.8, { muzzle: false, nose: 'none', mouth: 'smile' });
  return out;
}

function drawLion({ pal, is }: Ctx): string {
  const tiger = is('тигр');
  const maneCol = mix(pal.main, '#a4521e', 0.45);
  let out = tube('M400 480C480 480 500 420 470 400', 22, pal.main, pal.line);
  if (!tiger) out += C(470, 395, 22, maneCol);
  out += body(pal, { belly: tiger ? WHITE : undefined });
  if (!tiger) {
    for (let i = 0; i < 14; i++) {
      const a = (i * 2 * Math.PI) / 14;
      out += C(300 + Math.cos(a) * 135, 240 + Math.sin(a) * 135, 45, maneCol);
    }
  }
  out += head(300, 240, 120, pal, {
    ears: 'round',
    inner: tiger ? WHITE : pal.light,
    muzzle: tiger ? WHITE : pal.light,
    whiskers: tiger,
  });
  if (tiger) {
    out += L('M280 132l6 28M300 128v34M320 132l-6 28M182 230l30 6M418 230l-30 6', INK, 9);
    out += L('M200 400l30 5M400 400l-30 5M210 440l25 3M390 440l-25 3', INK, 9);
  }
  return out;
}

/* ---- морские ---- */

function drawWhale({ pal, is }: Ctx): string {
  let out = is('подушк') ? '' : L('M250 120q-10-40-30-50M270 110v-55M290 120q10-40 30-50', '#7cc4f0', 9);
  out += P(
    'M460 330C520 300 540 250 575 240C585 290 555 330 520 345C560 360 580 400 570 440C530 420 500 380 460 370Z',
    pal.main,
  );
  out += P(
    'M90 350C90 230 200 160 300 170C410 180 480 260 480 340C480 440 400 480 290 480C170 480 90 450 90 350Z',
    pal.main,
  );
  out += P('M110 390C170 460 380 470 470 380C450 450 390 480 290 480C190 480 125 450 110 390Z', pal.light, NS);
  out += C(210, 310, 15, INK, NS) + C(215, 304, 5, WHITE, NS) + E(200, 355, 22, 13, BLUSH, NS + ' opacity=".6"');
  out += L('M160 370q40 30 80 5', INK, 6);
  out += E(330, 410, 50, 26, pal.shade, rot(25, 330, 410));
  if (is('подушк')) {
    out += L(
      'M120 350C120 250 210 195 300 200C400 208 450 280 450 340C450 420 390 450 290 450C190 450 120 430 120 350Z',
      mix(pal.main, WHITE, 0.6),
      4,
    ).replace('/>', ' stroke-dasharray="14 10"/>');
    out += P(star(400, 120, 26, 11), GOLD, NS) + P(star(470, 170, 16, 7), GOLD, NS);
  }
  return out;
}

function drawFishLike({ pal, is }: Ctx): string {
  const shark = is('акул');
  const dolphin = is('дельфин');
  const fin = pal.shade;
  let out = '';
  if (shark || dolphin) {
    out += P('M300 210C320 150 360 120 400 115C380 160 380 190 390 220Z', fin);
    out += P(
      'M470 330C510 300 530 250 560 230C570 290 550 320 520 345C560 360 575 400 565 440C530 420 500 380 470 370Z',
      fin,
    );
    out += P(
      dolphin
        ? 'M60 330C80 300 110 290 140 290C200 220 300 200 400 230C460 250 490 300 490 345C490 420 400 450 300 450C200 450 130 410 110 370C90 365 70 350 60 330Z'
        : 'M70 340C90 260 200 210 320 215C420 220 490 280 490 340C490 410 400 450 290 450C170 450 80 420 70 340Z',
      pal.main,
    );
    out += P(
      dolphin
        ? 'M110 370C200 430 350 440 480 380C470 420 400 450 300 450C200 450 130 410 110 370Z'
        : 'M80 370C170 440 380 450 480 380C470 420 400 450 290 450C170 450 95 420 80 370Z',
      WHITE,
      NS,
    );
    out += C(185, 315, 14, INK, NS) + C(190, 310, 5, WHITE, NS) + E(200, 350, 20, 12, BLUSH, NS + ' opacity=".6"');
    out += E(300, 420, 55, 26, fin, rot(30, 300, 420));
    if (shark) {
      out +=
        P('M110 360Q160 400 220 370Z', WHITE, ` stroke="${INK}" stroke-width="5"`) +
        L('M130 368l8 12 8-10 8 12 8-10 8 12 8-10', INK, 3);
      out += L('M260 300q-10 25 0 50M285 300q-10 25 0 50', pal.line, 5);
    } else {
      out += L('M95 345q25 14 55 8', INK, 6);
    }
    return out;
  }
  // рыбка
  const stripe = mix(pal.main, WHITE, 0.55);
  out += P('M400 320L540 220C560 290 560 350 540 420Z', fin);
  out += P('M220 230C240 170 320 160 360 210Z', fin) + P('M240 410C260 470 320 470 340 420Z', fin);
  out += E(270, 320, 170, 120, pal.main);
  out += L('M330 215q40 105 0 210M385 235q30 85 0 170', stripe, 18);
  out += C(180, 295, 26, WHITE, NS) + C(185, 298, 15, INK, NS) + C(190, 292, 5, WHITE, NS);
  out += L('M120 350q25 18 50 0', INK, 6) + E(210, 350, 18, 11, BLUSH, NS + ' opacity=".6"');
  out +=
    C(150, 170, 12, WHITE, ` stroke="${pal.line}" stroke-width="3" opacity=".8"`) +
    C(120, 120, 8, WHITE, ` stroke="${pal.line}" stroke-width="3" opacity=".8"`);
  return out;
}

function drawOctopus({ pal }: Ctx): string {
  let out = '';
  const ends: [number, number][] = [
    [90, 430],
    [140, 510],
    [220, 550],
    [280, 560],
    [330, 560],
    [390, 550],
    [460, 510],
    [510, 430],
  ];
  ends.forEach(([x, y], i) => {
    const sx = 200 + i * 28;
    out += tube(
      `M${sx} 350Q${(sx + x) / 2} ${y + 10} ${x} ${y - 30}q${i < 4 ? -20 : 20} 20 ${i < 4 ? 10 : -10} 40`,
      34,
      pal.main,
      pal.line,
    );
  });
  out += E(300, 270, 180, 165, pal.main);
  out += C(220, 170, 16, pal.light, NS) + C(390, 160, 22, pal.light, NS) + C(360, 205, 10, pal.light, NS);
  out += face(300, 290, 1.2, { muzzle: false, nose: 'none' });
  return out;
}

function drawPenguin({ pal }: Ctx): string {
  const orange = '#f3a04a';
  let out = E(240, 535, 42, 20, orange) + E(360, 535, 42, 20, orange);
  for (const k of [-1, 1]) out += E(300 + k * 150, 370, 36, 95, pal.main, rot(k * -20, 300 + k * 150, 370));
  out += E(300, 330, 155, 210, pal.main);
  out += E(300, 390, 110, 145, WHITE, NS) + E(300, 250, 100, 80, WHITE, NS) + E(300, 300, 80, 80, WHITE, NS);
  out += face(300, 245, 1, { muzzle: false, nose: 'none', mouth: 'none' });
  out += P('M280 262L320 262L300 290Z', orange);
  out += scarf(RED, 345);
  return out;
}

function drawSeal({ pal }: Ctx): string {
  let out = P('M380 480C450 470 500 440 540 470C520 500 470 510 440 500Z', pal.main);
  out += E(300, 430, 170, 105, pal.main);
  for (const k of [-1, 1]) out += E(300 + k * 150, 470, 55, 25, pal.shade, rot(k * 30, 300 + k * 150, 470));
  out += C(300, 260, 130, pal.main);
  out += face(300, 260, 1.2, { muzzle: pal.light, eyes: 1.6, gap: 1.05 });
  for (const k of [-1, 1]) out += C(300 + k * 30, 315, 4, INK, NS) + C(300 + k * 45, 300, 4, INK, NS);
  return out;
}

function drawTurtle({ pal }: Ctx): string {
  const skin = mix(pal.main, '#f5e49a', 0.55);
  let out = '';
  for (const x of [170, 260, 350, 430]) out += E(x, 470, 40, 42, skin);
  out += C(505, 330, 72, skin) + face(510, 320, 0.7, { muzzle: false, nose: 'none' });
  out += P('M90 430C90 250 180 170 300 170C420 170 470 260 470 430Z', pal.main);
  out += R(75, 415, 410, 40, 20, mix(pal.main, '#f5e49a', 0.3));
  out += P('M230 260L300 225L370 260L370 330L300 365L230 330Z', pal.light, NS);
  out += P('M140 330L200 290L200 380Z', pal.light, NS) + P('M460 330L400 290L400 380Z', pal.light, NS);
  out += P('M300 185L250 215L350 215Z', pal.light, NS);
  return out;
}

function drawCrab({ pal }: Ctx): string {
  let out = '';
  for (const k of [-1, 1]) {
    for (let i = 0; i < 3; i++) out += L(`M${300 + k * 120} ${400 + i * 30}l${k * 70} ${25 + i * 10}`, pal.line, 12);
    out += tube(`M${300 + k * 140} 340Q${300 + k * 200} 300 ${300 + k * 190} 250`, 22, pal.main, pal.line);
    const cx = 300 + k * 190;
    out += P(`M${cx + 25} 168A55 55 0 1 1 ${cx - 25} 168L${cx} 210Z`, pal.main, rot(k * 25, cx, 218));
    out +=
      L(`M${300 + k * 40} 300V210`, pal.line, 10) + C(300 + k * 40, 195, 26, WHITE) + C(300 + k * 40, 198, 12, INK, NS);
  }
  out += E(300, 380, 180, 115, pal.main);
  out += E(300, 410, 120, 50, pal.light, NS + ' opacity=".6"');
  out +=
    L('M255 395q45 40 90 0', INK, 7) +
    E(215, 385, 20, 12, BLUSH, NS + ' opacity=".7"') +
    E(385, 385, 20, 12, BLUSH, NS + ' opacity=".7"');
  return out;
}

/* ---- для малышей ---- */

function animalHead(
  kind: 'fox' | 'bunny' | 'bear' | 'giraffe',
  cx: number,
  cy: number,
  r: number,
  pal: Palette,
): string {
  if (kind === 'fox') return head(cx, cy, r, pal, { ears: 'pointed', inner: INK, muzzle: WHITE, whiskers: true });
  if (kind === 'bunny')
    return head(cx, cy + r * 0.15, r * 0.92, pal, { ears: 'long', inner: '#f7bfd0', muzzle: WHITE, nose: '#e77f98' });
  if (kind === 'giraffe') {
    const spot = mix(pal.main, '#8a4f24', 0.45);
    return (
      L(
        `M${n(cx - r * 0.35)} ${n(cy - r * 0.7)}l-8 ${n(-r * 0.45)}M${n(cx + r * 0.35)} ${n(cy - r * 0.7)}l8 ${n(-r * 0.45)}`,
        pal.line,
        10,
      ) +
      C(cx - r * 0.35 - 8, cy - r * 1.15, 12, spot) +
      C(cx + r * 0.35 + 8, cy - r * 1.15, 12, spot) +
      head(cx, cy, r, pal, { ears: 'floppy', muzzle: pal.light }) +
      C(cx - r * 0.5, cy - r * 0.55, 12, spot, NS) +
      C(cx + r * 0.6, cy - r * 0.3, 9, spot, NS)
    );
  }
  return head(cx, cy, r, pal, { ears: 'round', muzzle: pal.light, sleepy: true });
}

function drawRattle({ pal, is }: Ctx, teether = false): string {
  const ring = teether ? hex('мятный') : mix(pal.main, WHITE, 0.5);
  let out = tube('M300 400m-95 0a95 95 0 1 0 190 0a95 95 0 1 0-190 0', 36, ring, teether ? '#5fa892' : pal.line);
  if (!teether) {
    out += R(360, 460, 30, 60, 8, '#9fc8f0', rot(-30, 375, 470)) + R(200, 460, 30, 60, 8, '#f9cf6a', rot(30, 215, 470));
    for (const a of [0.6, 1.6, 2.6]) out += C(300 + Math.cos(a) * 95, 400 + Math.sin(a) * 95, 10, GOLD, NS);
  }
  const kind = teether ? 'giraffe' : is('лис') ? 'fox' : is('зай') ? 'bunny' : 'bear';
  out += animalHead(kind, 300, 235, 110, pal);
  return out;
}

function drawComforter({ pal, is }: Ctx): string {
  const cloth = mix(pal.main, WHITE, 0.35);
  let out = P('M300 200Q390 300 500 390Q390 470 300 560Q210 470 100 390Q210 300 300 200Z', cloth);
  for (const [x, y] of [
    [500, 390],
    [100, 390],
    [300, 560],
  ] as [number, number][])
    out += C(x, y, 22, pal.main);
  out += L('M160 390Q300 330 440 390', mix(pal.main, WHITE, 0.7), 6);
  out += R(140, 425, 40, 24, 6, '#9fc8f0', rot(40, 160, 437)) + R(420, 425, 40, 24, 6, '#f9cf6a', rot(-40, 440, 437));
  out += animalHead(is('зай') ? 'bunny' : 'bear', 300, 255, 105, pal);
  return out;
}

function drawCube({ pal }: Ctx): string {
  const top = mix(pal.main, WHITE, 0.45);
  const right = pal.shade;
  let out =
    P('M300 120L480 210L300 300L120 210Z', top) +
    P('M120 210L300 300L300 510L120 420Z', pal.main) +
    P('M480 210L300 300L300 510L480 420Z', right);
  out += P(star(210, 360, 45, 20), GOLD, ` stroke="${INK}" stroke-width="4"`);
  out += P(heart(390, 360, 0.9), RED, ` stroke="${INK}" stroke-width="4"`);
  out += C(300, 210, 30, '#9fc8f0', ` stroke="${INK}" stroke-width="4"`);
  return out;
}

function cloudShapes(cx: number, cy: number, s: number, fill: string): string[] {
  return [
    C(cx - 60 * s, cy + 10 * s, 50 * s, fill),
    C(cx, cy - 20 * s, 65 * s, fill),
    C(cx + 65 * s, cy + 5 * s, 52 * s, fill),
    R(cx - 105 * s, cy + 10 * s, 215 * s, 50 * s, 25 * s, fill),
  ];
}

function drawMobile({ pal }: Ctx): string {
  const cloud = mix(pal.main, WHITE, 0.6);
  let out = L('M300 70V40', pal.line, 8) + L('M110 150Q300 50 490 150', pal.line, 12);
  out += L('M150 135V290M300 95V400M450 135V290', '#b9a99a', 3);
  out += blob(cloudShapes(150, 320, 0.55, cloud)) + face(150, 325, 0.45, { muzzle: false, nose: 'none' });
  out += blob(cloudShapes(450, 320, 0.55, cloud)) + face(450, 325, 0.45, { muzzle: false, nose: 'none', sleepy: true });
  out += P('M345 410A70 70 0 1 1 300 520A55 55 0 1 0 345 410Z', GOLD, rot(-20, 300, 460));
  out +=
    L('M225 115V200M375 115V200', '#b9a99a', 3) + P(star(225, 225, 30, 13), GOLD) + P(star(375, 225, 30, 13), GOLD);
  return out;
}

function drawBook({ pal }: Ctx): string {
  let out = P('M300 180Q200 130 90 160V470Q200 440 300 490Q400 440 510 470V160Q400 130 300 180Z', pal.main);
  out +=
    P('M300 200Q210 160 115 180V445Q210 425 300 465Z', WHITE) +
    P('M300 200Q390 160 485 180V445Q390 425 300 465Z', WHITE);
  // солнышко слева, коровка справа
  out += C(205, 290, 42, GOLD, NS);
  for (let i = 0; i < 8; i++) {
    const a = (i * Math.PI) / 4;
    out += L(
      `M${n(205 + Math.cos(a) * 55)} ${n(290 + Math.sin(a) * 55)}l${n(Math.cos(a) * 18)} ${n(Math.sin(a) * 18)}`,
      '#e8b43a',
      6,
    );
  }
  out += L('M150 390q55-30 110 0', '#6cbf63', 8);
  const pig = '#f7b8c8';
  const pigLine = ` stroke="${mix(pig, INK, 0.5)}" stroke-width="4"`;
  out +=
    P('M345 270l-5-45 40 25Z', pig, pigLine) + P('M455 270l5-45-40 25Z', pig, pigLine) + C(400, 310, 62, pig, pigLine);
  out += E(400, 330, 26, 18, '#ee93ab', pigLine) + C(391, 330, 4, INK, NS) + C(409, 330, 4, INK, NS);
  out += face(400, 295, 0.45, { muzzle: false, nose: 'none', mouth: 'none' });
  out += L('M300 190V470', pal.line, 4) + R(495, 250, 40, 26, 8, '#f9cf6a') + R(495, 330, 40, 26, 8, '#f59ab0');
  return out;
}

function drawSheep({ pal }: Ctx): string {
  const wool = pal.main;
  const faceCol = '#9c7b63';
  let out = E(230, 520, 24, 30, faceCol) + E(370, 520, 24, 30, faceCol);
  const ring: string[] = [];
  for (let i = 0; i < 10; i++) {
    const a = (i * 2 * Math.PI) / 10;
    ring.push(C(300 + Math.cos(a) * 130, 390 + Math.sin(a) * 100, 62, wool));
  }
  ring.push(E(300, 390, 150, 120, wool));
  out += blob(ring);
  for (const k of [-1, 1]) out += E(300 + k * 95, 230, 45, 20, faceCol, rot(k * 25, 300 + k * 95, 230));
  out += E(300, 250, 80, 95, faceCol);
  out += blob([C(265, 165, 30, wool), C(300, 150, 34, wool), C(335, 165, 30, wool)]);
  out += face(300, 255, 0.75, { muzzle: mix(faceCol, WHITE, 0.35), nose: INK });
  return out;
}

/* ---- подушки и пледы ---- */

function drawCloud({ pal }: Ctx): string {
  return blob(cloudShapes(300, 300, 1.6, pal.main)) + face(300, 320, 1.1, { muzzle: false, nose: 'none' });
}

function drawStarPillow({ pal }: Ctx): string {
  return (
    P(star(300, 320, 250, 120), pal.main, ' stroke-width="24"') +
    P(star(300, 320, 250, 120), pal.main, NS) +
    face(300, 330, 1, { sleepy: true, muzzle: false, nose: 'none' })
  );
}

function drawHeartPillow({ pal }: Ctx): string {
  return (
    P(heart(300, 280, 4.4), pal.main) +
    `<text x="300" y="370" font-family="sans-serif" font-size="44" font-weight="bold" text-anchor="middle" fill="${WHITE}" stroke="none">Люблю</text>` +
    face(300, 250, 0.9, { muzzle: false, nose: 'none' })
  );
}

function drawAvocado({ pal }: Ctx): string {
  const d = 'M300 70C380 70 400 170 440 250C500 360 470 540 300 540C130 540 100 360 160 250C200 170 220 70 300 70Z';
  return (
    P(d, mix(pal.main, '#2f6b2c', 0.45)) +
    P(d, mix(pal.main, '#f3f5b0', 0.55), NS + ' transform="translate(300 320) scale(.8) translate(-300 -320)"') +
    C(300, 380, 95, '#b07a4f') +
    face(300, 375, 0.8, { muzzle: false, nose: 'none' })
  );
}

function drawBlanket(ctx: Ctx): string {
  const { pal, is } = ctx;
  const b = pal.main;
  let out =
    R(100, 390, 400, 120, 40, pal.shade) + R(90, 330, 420, 120, 40, b) + L('M110 420h380', mix(b, WHITE, 0.4), 5);
  out += R(110, 280, 380, 100, 40, mix(b, WHITE, 0.25));
  const pattern = is('звёздн');
  if (pattern) {
    for (const [x, y, r] of [
      [160, 320, 18],
      [260, 345, 12],
      [360, 310, 16],
      [440, 350, 12],
      [200, 465, 14],
      [400, 470, 16],
    ] as [number, number, number][]) {
      out += P(star(x, y, r, r * 0.45), GOLD, NS);
    }
    out += P('M330 150A80 80 0 1 1 270 270A60 60 0 1 0 330 150Z', GOLD, rot(-20, 300, 210));
    return out;
  }
  for (let i = 0; i < 6; i++) out += C(150 + i * 60, 470, 9, WHITE, NS + ' opacity=".7"');
  if (is('единорог')) {
    out +=
      head(300, 185, 100, pal, { ears: 'horse', muzzle: false, mouth: 'none' }) +
      E(300, 235, 60, 40, pal.light) +
      mane(pal, true);
    out += P('M285 100L300 20L315 100Z', GOLD);
  } else if (is('пёс')) {
    out += head(300, 190, 105, pal, { ears: 'floppy', earColor: pal.shade, muzzle: pal.light, mouth: 'open' });
  } else {
    out += head(300, 190, 105, pal, { ears: 'round', muzzle: pal.light });
  }
  return out;
}

const RENDERERS: Record<Kind, (ctx: Ctx) => string> = {
  bear: drawBear,
  panda: drawPanda,
  bunny: drawBunny,
  cat: drawCat,
  loafcat: drawLoafCat,
  dog: drawDog,
  unicorn: (c) => drawUnicorn(c, true),
  horse: (c) => drawUnicorn(c, false),
  dragon: drawDragon,
  kolobok: drawKolobok,
  frog: drawFrog,
  fox: drawFox,
  wolf: drawFox,
  raccoon: drawFox,
  owl: drawOwl,
  hedgehog: drawHedgehog,
  elephant: drawElephant,
  giraffe: drawGiraffe,
  lion: drawLion,
  tiger: drawLion,
  whale: drawWhale,
  dolphin: drawFishLike,
  shark: drawFishLike,
  fish: drawFishLike,
  octopus: drawOctopus,
  penguin: drawPenguin,
  seal: drawSeal,
  turtle: drawTurtle,
  crab: drawCrab,
  rattle: (c) => drawRattle(c, false),
  teether: (c) => drawRattle(c, true),
  comforter: drawComforter,
  cube: drawCube,
  mobile: drawMobile,
  book: drawBook,
  sheep: drawSheep,
  cloud: drawCloud,
  starpillow: drawStarPillow,
  heartpillow: drawHeartPillow,
  avocado: drawAvocado,
  blanket: drawBlanket,
};

/* ------------------------------------------------------------------------ */
/* Публичные функции                                                         */
/* ------------------------------------------------------------------------ */

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!);
}

function seedOf(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

function toyColor(product: SeedProduct, kind: Kind): string {
  const name = product.variants[0]?.color ?? KIND_DEFAULT[kind] ?? 'бежевый';
  return hex(name);
}

/** Рисунок игрушки в системе координат 600×600 (без обёртки <svg>). */
function toyMarkup(name: string, kind: Kind, main: string): string {
  const pal = palette(main);
  const lower = name.toLowerCase();
  const ctx: Ctx = { name, pal, is: (stem) => has(lower, stem) };
  return `<g stroke="${pal.line}" stroke-width="7" stroke-linejoin="round" stroke-linecap="round">${RENDERERS[kind](ctx)}</g>`;
}

function svgOpen(w: number, h: number, title: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><title>${escapeXml(title)}</title>`;
}

export function drawProductImage(product: SeedProduct): string {
  const kind = productKind(product.name);
  const main = toyColor(product, kind);
  const seed = seedOf(product.art);
  let bgIndex = seed % BACKGROUNDS.length;
  if (distance(pick(BACKGROUNDS, bgIndex), main) < 45) bgIndex = (bgIndex + 1) % BACKGROUNDS.length;
  const bg = pick(BACKGROUNDS, bgIndex);
  let deco = '';
  for (let i = 0; i < 6; i++) {
    const h = seedOf(`${product.art}:${i}`);
    const x = 40 + (h % 520);
    const y = 40 + ((h >>> 10) % 520);
    const r = 10 + ((h >>> 20) % 26);
    deco += C(x, y, r, WHITE, ' opacity=".55"');
  }
  return (
    svgOpen(600, 600, product.name) +
    R(0, 0, 600, 600, 0, bg) +
    deco +
    E(300, 555, 190, 22, mix(bg, INK, 0.12)) +
    toyMarkup(product.name, kind, main) +
    '</svg>'
  );
}

/** Игрушка, вписанная в баннер: (x, y) — левый верхний угол, size — сторона квадрата. */
function placedToy(name: string, color: string, x: number, y: number, size: number): string {
  return `<g transform="translate(${n(x)} ${n(y)}) scale(${(size / 600).toFixed(3)})">${toyMarkup(name, productKind(name), hex(color))}</g>`;
}

function box(x: number, y: number, w: number, h: number): string {
  return (
    R(x, y, w, h, 6, '#d9a86c', ' stroke="#9c6d3a" stroke-width="4"') +
    R(x + w / 2 - 12, y, 24, h, 0, '#ecc48f', NS) +
    R(x + w * 0.12, y + h * 0.55, w * 0.3, h * 0.25, 3, '#fff7ea', NS)
  );
}

interface BannerSpec {
  title: string[];
  subtitle: string;
  button: string;
  bg: [string, string];
  accent: string;
  art: (x: number) => string;
}

const BANNERS: BannerSpec[] = [
  {
    title: ['Оптом', 'от 1 коробки'],
    subtitle: 'Цены производителя для магазинов',
    button: 'Открыть каталог',
    bg: ['#fde3ea', '#fff3dc'],
    accent: '#d9577a',
    art: () =>
      box(720, 250, 170, 120) +
      box(900, 250, 170, 120) +
      box(810, 140, 170, 110) +
      placedToy('Мишка Тедди с бантом', 'бежевый', 660, 90, 230) +
      placedToy('Зайка Ушастик', 'розовый', 960, 60, 210),
  },
  {
    title: ['Новая коллекция', 'мишек'],
    subtitle: 'Тедди, панды и обнимашки уже на складе',
    button: 'Смотреть новинки',
    bg: ['#efe6fb', '#e4f3fb'],
    accent: '#7a5cc7',
    art: () =>
      placedToy('Мишка-обнимашка Бублик', 'лавандовый', 660, 110, 270) +
      placedToy('Панда Бамбук', 'белый', 900, 100, 280) +
      placedToy('Медвежонок Топтыжка', 'карамельный', 790, 170, 230),
  },
  {
    title: ['Доставка', 'по всей России'],
    subtitle: 'Отправка за 1–2 рабочих дня',
    button: 'Условия доставки',
    bg: ['#e3f4f1', '#e7effc'],
    accent: '#2f8f83',
    art: () =>
      R(640, 150, 330, 180, 18, '#ffffff', ' stroke="#6f8796" stroke-width="6"') +
      P('M970 200H1060L1120 260V330H970Z', '#6fb3e0', ' stroke="#3d6d8c" stroke-width="6" stroke-linejoin="round"') +
      R(990, 215, 60, 45, 6, '#dff1fb', NS) +
      C(720, 340, 36, '#4a4f5a') +
      C(720, 340, 14, '#cfd4da') +
      C(1050, 340, 36, '#4a4f5a') +
      C(1050, 340, 14, '#cfd4da') +
      `<text class="wide" x="805" y="262" font-family="sans-serif" font-size="34" font-weight="bold" text-anchor="middle" fill="#2f8f83">Мягкий Опт</text>` +
      placedToy('Кит Плюх', 'голубой', 650, 20, 170) +
      placedToy('Пингвинёнок Пинг', 'синий', 820, 10, 160),
  },
  {
    title: ['Сказочные', 'герои'],
    subtitle: 'Единороги, дракончики и Колобок',
    button: 'Выбрать',
    bg: ['#fff1d6', '#fde3ef'],
    accent: '#e07a2f',
    art: () =>
      placedToy('Дракончик Искорка', 'зелёный', 650, 110, 260) +
      placedToy('Единорог Радуга', 'белый', 880, 60, 300) +
      placedToy('Колобок', 'жёлтый', 830, 250, 140),
  },
];

/**
 * A banner is drawn 1200 units wide at whatever width the page gives it. Below 700 px of its own
 * width (a phone, a narrow tablet) its 24-unit subtitle and the truck's lettering would be under
 * 14 px: there the picture leaves them out and draws its button larger (a media query inside the
 * SVG, which the browser evaluates against the picture's own size), so every word left is readable
 * down to a 296 px banner (a 320 px phone).
 */
const NARROW_BANNER_STYLE =
  '<style>.narrow{display:none}@media (max-width:699px){.wide{display:none}.narrow{display:inline}}</style>';

function bannerButton(spec: BannerSpec, className: string, y: number, height: number, fontSize: number): string {
  const width = Math.max(300, Math.round(spec.button.length * fontSize * 0.6 + 80));
  return (
    `<g class="${className}">` +
    R(70, y, width, height, height / 2, spec.accent) +
    `<text x="${70 + width / 2}" y="${y + height / 2 + fontSize * 0.36}" font-family="sans-serif" font-size="${fontSize}" font-weight="bold" fill="${WHITE}" text-anchor="middle">${escapeXml(spec.button)}</text></g>`
  );
}

export function drawBannerImage(index: number, banner: { image: string; url: string }): string {
  const spec = pick(BANNERS, index);
  const id = `g${index}`;
  let out = svgOpen(1200, 400, `${spec.title.join(' ')}. ${spec.subtitle}`) + NARROW_BANNER_STYLE;
  out += `<defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${spec.bg[0]}"/><stop offset="1" stop-color="${spec.bg[1]}"/></linearGradient></defs>`;
  out += R(0, 0, 1200, 400, 0, `url(#${id})`);
  for (let i = 0; i < 9; i++) {
    const h = seedOf(`${banner.image}:${i}`);
    out += C(40 + (h % 1120), 20 + ((h >>> 11) % 360), 8 + ((h >>> 21) % 30), WHITE, ' opacity=".5"');
  }
  out += C(930, 470, 330, WHITE, ' opacity=".35"');
  out += spec.art(0);
  out += `<g font-family="sans-serif" fill="${INK}">`;
  spec.title.forEach((line, i) => {
    out += `<text x="70" y="${120 + i * 72}" font-size="64" font-weight="bold">${escapeXml(line)}</text>`;
  });
  out += `<text class="wide" x="72" y="${130 + spec.title.length * 72}" font-size="24" fill="#5a4d50">${escapeXml(spec.subtitle)}</text></g>`;
  out += bannerButton(spec, 'wide', 290, 64, 26);
  out += bannerButton(spec, 'narrow', 250, 110, 58);
  return out + '</svg>';
}

export function drawAboutImage(): string {
  let out = svgOpen(800, 500, 'Склад «Мягкого Опта»: стеллажи с мягкими игрушками');
  out += R(0, 0, 800, 500, 0, '#f3ece2') + R(0, 400, 800, 100, 0, '#d8cbb8') + L('M0 400H800', '#c2b29b', 4);
  out += R(300, 40, 200, 60, 10, '#ffffff', ' stroke="#c2b29b" stroke-width="4"');
  out += `<text x="400" y="80" font-family="sans-serif" font-size="26" font-weight="bold" text-anchor="middle" fill="#7a5cc7">Мягкий Опт</text>`;
  const toys: [string, string][] = [
    ['Мишка Тедди с бантом', 'бежевый'],
    ['Зайка Ушастик', 'розовый'],
    ['Лисёнок Рыжик', 'рыжий'],
    ['Панда Бамбук', 'белый'],
    ['Единорог Радуга', 'лавандовый'],
    ['Кит Плюх', 'голубой'],
    ['Котёнок Персик', 'персиковый'],
    ['Сова Умница', 'коричневый'],
    ['Пингвинёнок Пинг', 'синий'],
    ['Слонёнок Дружок', 'серый'],
    ['Осьминожка Тина', 'мятный'],
    ['Дракончик Искорка', 'зелёный'],
  ];
  // два стеллажа по три полки
  [40, 530].forEach((sx, rack) => {
    const w = 230;
    out += R(sx, 110, 12, 300, 3, '#7f8a99') + R(sx + w - 12, 110, 12, 300, 3, '#7f8a99');
    [190, 290, 390].forEach((sy, shelf) => {
      out += R(sx - 6, sy, w + 12, 12, 3, '#e08a3c', ' stroke="#a9612a" stroke-width="2"');
      const t1 = pick(toys, rack * 6 + shelf * 2);
      const t2 = pick(toys, rack * 6 + shelf * 2 + 1);
      if (shelf === 2) {
        out += box(sx + 20, sy - 70, 95, 70) + placedToy(t1[0], t1[1], sx + 120, sy - 90, 95);
      } else {
        out += placedToy(t1[0], t1[1], sx + 10, sy - 95, 100) + placedToy(t2[0], t2[1], sx + 110, sy - 95, 100);
      }
    });
  });
  // штабель коробок и тележка в центре
  out += box(300, 330, 110, 80) + box(420, 330, 90, 80) + box(345, 255, 110, 75);
  out += placedToy('Большой медведь Михалыч', 'коричневый', 330, 120, 150);
  out += E(400, 440, 330, 14, '#c2b29b', NS + ' opacity=".6"');
  return out + '</svg>';
}

/* ------------------------------------------------------------------------ */
/* CLI                                                                       */
/* ------------------------------------------------------------------------ */

export function writeAllImages(dir: string): number {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  for (const product of seedProducts) {
    writeFileSync(join(dir, product.image), drawProductImage(product));
    count++;
  }
  seedBanners.forEach((banner, i) => {
    writeFileSync(join(dir, banner.image), drawBannerImage(i, banner));
    count++;
  });
  writeFileSync(join(dir, aboutImage), drawAboutImage());
  return count + 1;
}

// Запуск напрямую: npm run draw-images
// (без import.meta/require.main, чтобы файл одинаково работал в ESM, CJS и под jest)
const entry = process.argv[1] ?? '';
if (/^draw-images\.(ts|js|mjs|cjs)$/.test(basename(entry))) {
  const dir = resolve(dirname(resolve(entry)), '../src/server/assets/images');
  const count = writeAllImages(dir);
  console.log(`Записано картинок: ${count} → ${dir}`);
}

// The storefront's antd CSS, made ahead of time (the root ConfigProvider runs with zeroRuntime, so
// antd injects no component styles in the browser). Renders the antd components the shop uses
// with react-dom/server once per theme and keeps what antd's CSS-in-JS registered: the component
// rules (the same in both themes, since they refer only to CSS variables) and each theme's
// variables, the dark ones scoped to html[data-theme="dark"]. One file per group of
// theme/antdComponents.ts: the shell's (first load), and the others', which come with their chunks. Run by webpack.config.js before each
// build and dev server start, or on its own: `npm run build:styles`.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { extractStyle } from '@ant-design/static-style-extract';
import { ConfigProvider, type ThemeConfig } from 'antd';
import { ANTD_STYLE_GROUPS } from '../src/client/theme/antdComponents';
import { CSS_VAR_KEY, darkTheme, lightTheme } from '../src/client/theme/antdTheme';

// Next to the theme they are made from; ignored by git, made again by every build.
const OUTPUT_DIR = path.join(__dirname, '..', 'src', 'client', 'theme');

/** The CSS antd would inject for these components under one theme, as one string. */
function extract(components: readonly string[], themeConfig: ThemeConfig): string {
  // Extraction needs the runtime: zeroRuntime off here is what makes antd register the styles.
  const generating = { ...themeConfig, zeroRuntime: false };
  return (
    extractStyle({
      includes: [...components],
      customTheme: (node) => <ConfigProvider theme={generating}>{node}</ConfigProvider>,
    })
      .replace(/<style[^>]*>|<\/style>/g, '\n')
      // Nested ConfigProviders inside some components (Modal's confirm) get keys made per render;
      // no element in the browser carries them.
      .replace(/\.css-var-_[^{}]*\{[^{}]*\}/g, '')
  );
}

// A rule that declares CSS variables and nothing else: antd's token block on .css-var-shop and the
// component-token blocks (.ant-btn{--ant-btn-…}). Nothing else differs between the themes.
const VARIABLES_RULE = /([^{}]+)\{((?:\s*--[\w-]+:[^;{}]*;?)+)\}/g;

/** Each variable rule's declarations by selector: { '.css-var-shop': { '--ant-color-primary': '#c0325a', … } }. */
function variablesBySelector(css: string): Map<string, Map<string, string>> {
  return new Map(
    [...css.matchAll(VARIABLES_RULE)].map(([, selector, body]) => [
      selector!.trim(),
      new Map(
        body!.split(';').flatMap((declaration) => {
          const colon = declaration.indexOf(':');
          return colon > 0 ? [[declaration.slice(0, colon).trim(), declaration.slice(colon + 1).trim()] as const] : [];
        }),
      ),
    ]),
  );
}

/**
 * The dark theme's variable rules, each selector under html[data-theme="dark"], with only the
 * variables whose value differs from the light theme's (most sizes and motions are the same):
 * they override the light ones, which are always there.
 */
function darkVariables(light: string, dark: string): string {
  const lightValues = variablesBySelector(light);
  return [...variablesBySelector(dark)]
    .map(([selector, declarations]) => {
      const changed = [...declarations].filter(([name, value]) => lightValues.get(selector)?.get(name) !== value);
      if (changed.length === 0) return '';
      const scoped = selector.split(',').map((part) => `html[data-theme="dark"] ${part.trim()}`);
      return `${scoped.join(',')}{${changed.map(([name, value]) => `${name}:${value}`).join(';')}}`;
    })
    .filter(Boolean)
    .join('\n');
}

// antd's theme variables (colours, sizes), on the elements antd renders. The shell's file also puts
// them on the document, so the shop's own CSS can use them (app/global.css); the other files leave
// them out, as the shell's is always there first.
const TOKEN_RULE = new RegExp(`(^|})\\s*\\.${CSS_VAR_KEY}\\{`, 'g');

function withTokensOnDocument(css: string): string {
  return css
    .replace(TOKEN_RULE, `$1:root,.${CSS_VAR_KEY}{`)
    .replace(
      new RegExp(`html\\[data-theme="dark"\\] \\.${CSS_VAR_KEY}\\{`, 'g'),
      `html[data-theme="dark"],html[data-theme="dark"] .${CSS_VAR_KEY}{`,
    );
}

function withoutTokens(css: string): string {
  return css.replace(new RegExp(`(^|})\\s*(?:html\\[data-theme="dark"\\] )?\\.${CSS_VAR_KEY}\\{[^{}]*\\}`, 'g'), '$1');
}

/**
 * Drops the declarations of variables that no rule reads: antd declares its whole token set (every
 * palette, sizes of components the shop does not render), and about a third of the shell's file
 * was variables nothing refers to, parsed on every first load. `readers` is every stylesheet of
 * the shop (the shop's TypeScript reads no variable by name).
 */
function withoutUnreadVariables(css: string, readers: readonly string[]): string {
  const read = new Set(readers.flatMap((text) => [...text.matchAll(/var\((--[\w-]+)/g)].map((match) => match[1])));
  return css.replace(VARIABLES_RULE, (_rule, selector: string, body: string) => {
    const kept = body.split(';').filter((declaration) => read.has(declaration.split(':')[0]!.trim()));
    return kept.length > 0 ? `${selector}{${kept.join(';')}}` : '';
  });
}

// extractStyle's record of what it rendered, which no element matches.
const CACHE_PATH_RULE = /\.data-ant-cssinjs-cache-path\{[^{}]*\}/g;

const stylesheets = Object.entries(ANTD_STYLE_GROUPS).map(([name, components]) => {
  const tokens = name === 'shell' ? withTokensOnDocument : withoutTokens;
  const light = extract(components, lightTheme).replace(CACHE_PATH_RULE, '');
  const variables = [...light.matchAll(VARIABLES_RULE)].map(([rule]) => rule.trim()).join('\n');
  // The component rules go in a cascade layer, so the shop's own (unlayered) rules win over antd's
  // whatever order the files arrive in (the pages' files come with lazy chunks, after the shop's).
  // The variables stay unlayered: antd still writes the light theme's token block at run time
  // (useCacheToken, unlayered), the same values on the same .css-var-shop, so it changes nothing,
  // while the dark rules outrank it by their html[data-theme="dark"] prefix. Inside the layer they
  // would lose to it.
  const css = `${tokens(`${variables}\n${darkVariables(light, extract(components, darkTheme))}`)}\n@layer antd{${light.replace(VARIABLES_RULE, '')}}\n`;
  return { file: path.join(OUTPUT_DIR, `antd-${name}.generated.css`), css };
});

const shopStylesheets = readdirSync(path.join(OUTPUT_DIR, '..'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.css') && !file.endsWith('.generated.css'))
  .map((file) => readFileSync(path.join(OUTPUT_DIR, '..', file), 'utf8'));
const readers = [...stylesheets.map(({ css }) => css), ...shopStylesheets];

mkdirSync(OUTPUT_DIR, { recursive: true });
for (const { file, css } of stylesheets) {
  const used = withoutUnreadVariables(css, readers);
  writeFileSync(file, used);
  console.log(`antd CSS: ${path.relative(process.cwd(), file)} (${(Buffer.byteLength(used) / 1024).toFixed(0)} KB)`);
}

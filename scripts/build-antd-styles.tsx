// The storefront's antd CSS, made ahead of time (the root ConfigProvider runs with zeroRuntime, so
// antd injects no component styles in the browser). Renders every antd component the shop uses
// once per theme with react-dom/server and keeps what antd's CSS-in-JS registered: the component
// rules (the same in both themes, since they refer only to CSS variables) and each theme's
// variables, the dark ones scoped to html[data-theme="dark"]. Run by webpack.config.js before
// each build, or on its own: `npm run build:styles`.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { extractStyle } from '@ant-design/static-style-extract';
import { ConfigProvider, type ThemeConfig } from 'antd';
import { darkTheme, lightTheme } from '../src/client/theme/antdTheme';
import { ANTD_COMPONENTS } from '../src/client/theme/antdComponents';

// Next to the theme it is made from; ignored by git, made again by every build.
export const OUTPUT = path.join(__dirname, '..', 'src', 'client', 'theme', 'antd.generated.css');

/** The CSS antd would inject for the shop's components under one theme, as one string. */
function extract(themeConfig: ThemeConfig): string {
  // Extraction needs the runtime: zeroRuntime off here is what makes antd register the styles.
  const generating = { ...themeConfig, zeroRuntime: false };
  return extractStyle({
    includes: [...ANTD_COMPONENTS],
    customTheme: (node) => <ConfigProvider theme={generating}>{node}</ConfigProvider>,
  })
    .replace(/<style[^>]*>|<\/style>/g, '\n')
    // Nested ConfigProviders inside some components (Modal's confirm) get keys made per render;
    // no element in the browser carries them.
    .replace(/\.css-var-_[^{}]*\{[^{}]*\}/g, '');
}

// A rule that declares CSS variables and nothing else: antd's token block on .css-var-shop and the
// component-token blocks (.ant-btn{--ant-btn-…}). Nothing else differs between the themes.
const VARIABLES_RULE = /([^{}]+)\{((?:\s*--[\w-]+:[^;{}]*;?)+)\}/g;

/** The rules that only declare CSS variables, as [selector, declarations]. */
function variableRules(css: string): [selector: string, body: string][] {
  return [...css.matchAll(VARIABLES_RULE)].map((match) => [match[1]!.trim(), match[2]!]);
}

const light = extract(lightTheme);
const dark = extract(darkTheme);
const darkVariables = variableRules(dark)
  .map(([selector, body]) =>
    selector
      .split(',')
      .map((part) => `html[data-theme="dark"] ${part.trim().replace(/^:where\(|\)$/g, '')}`)
      .join(',') + `{${body}}`,
  )
  .join('\n');

mkdirSync(path.dirname(OUTPUT), { recursive: true });
writeFileSync(OUTPUT, `${light}\n${darkVariables}\n`);
console.log(`antd CSS: ${OUTPUT} (${(Buffer.byteLength(light) / 1024).toFixed(0)} KB light, ${(Buffer.byteLength(darkVariables) / 1024).toFixed(0)} KB dark variables)`);

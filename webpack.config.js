// Builds the storefront (src/client) into dist/, which the API server serves on the same port.
const path = require('node:path');
const webpack = require('webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CssMinimizerPlugin = require('css-minimizer-webpack-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const zlib = require('node:zlib');
const { execFileSync } = require('node:child_process');

/**
 * Writes dist/asset-manifest.json: the files of the entry point and of each named lazy chunk
 * (page-home, page-catalogue...), so the size budget can add up exactly what a page downloads.
 */
class AssetManifestPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('AssetManifestPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'AssetManifestPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_SUMMARIZE },
        () => {
          const groups = {};
          for (const [name, group] of compilation.namedChunkGroups) {
            groups[name] = [...new Set(group.chunks.flatMap((chunk) => [...chunk.files]))].filter((file) =>
              /\.(js|css)$/.test(file),
            );
          }
          compilation.emitAsset('asset-manifest.json', new webpack.sources.RawSource(JSON.stringify(groups, null, 2)));
        },
      );
    });
  }
}

/**
 * Puts the entry's stylesheet into index.html when it is small (a linked one blocks the first paint
 * for a round trip). antd's build-time CSS makes it large: then it stays a linked, cached file, as
 * inlining it would send it again with every page.
 */
const INLINE_CSS_LIMIT_BYTES = 16 * 1024;

class InlineEntryCssPlugin {
  apply(compiler) {
    compiler.hooks.compilation.tap('InlineEntryCssPlugin', (compilation) => {
      HtmlWebpackPlugin.getCompilationHooks(compilation).alterAssetTagGroups.tap('InlineEntryCssPlugin', (groups) => {
        groups.headTags = groups.headTags.map((tag) => {
          const href = tag.tagName === 'link' && tag.attributes.rel === 'stylesheet' ? tag.attributes.href : null;
          const file = href && href.replace(/^\//, '');
          if (!file || !compilation.assets[file] || compilation.assets[file].size() > INLINE_CSS_LIMIT_BYTES)
            return tag;
          return HtmlWebpackPlugin.createHtmlTagObject('style', {}, compilation.assets[file].source().toString());
        });
        return groups;
      });
    });
  }
}

/** The API base address {host} of SPEC §7, always ending with a slash. */
function apiUrl() {
  const raw = process.env.API_URL || '/';
  return raw.endsWith('/') ? raw : `${raw}/`;
}

/**
 * antd's stylesheet for the components the shop uses, both themes (scripts/build-antd-styles.tsx).
 * Made before every build and dev server start, so `npm run build`, `npm start` and the e2e run
 * all have it; main.tsx imports it, so it is hashed, compressed and listed like the shop's own CSS.
 */
function buildAntdStyles() {
  execFileSync(
    process.execPath,
    [
      require.resolve('tsx/cli'),
      '--tsconfig',
      path.join(__dirname, 'tsconfig.tools.json'),
      path.join(__dirname, 'scripts/build-antd-styles.tsx'),
    ],
    { stdio: 'inherit' },
  );
}

// Where antd really is (webpack sees modules at their real path, and node_modules may be a link).
const ANTD_ES = path.join(path.dirname(require.resolve('antd/package.json')), 'es');
/** The folder in antd/es a module's directory is in ('button', 'typography/Base'), or null outside antd. */
function antdFolder(directory) {
  const relative = path.relative(ANTD_ES, directory);
  return relative.startsWith('..') || path.isAbsolute(relative) ? null : relative.split(path.sep).join('/');
}

// What each replacement below has done in the current compilation, for the check at its end
// (AntdPatchesCheckPlugin): one that did nothing means antd moved what it relies on.
const patchesApplied = new Set();

// antd components (their folders in antd/es) whose style hooks are replaced by a class-name-only hook in the browser build
// (src/client/theme/zeroRuntime): their CSS comes from the build-time stylesheet. The first load's
// (Button, Badge, Spin, Flex) and the catalogue's and product page's, whose first paint on a phone
// waits for their chunk. Each of these imports its style module only for the default hook or a
// sub-style component that renders nothing (compact, presetCmp, statusCmp).
const ZERO_RUNTIME_STYLED = [
  'button',
  'badge',
  'spin',
  'flex',
  'card',
  'select',
  'radio',
  'input-number',
  'tag',
  'typography',
  'empty',
];
const SUB_STYLE_COMPONENT = /^\.\/style\/(compact|presetCmp|statusCmp)$/;
const zeroRuntimeStyles = new webpack.NormalModuleReplacementPlugin(/^\.\/style(\/.*)?$/, (resource) => {
  const folder = antdFolder(resource.context);
  if (!ZERO_RUNTIME_STYLED.includes(folder)) return;
  const stub = SUB_STYLE_COMPONENT.test(resource.request) ? 'NoStyleComponent.js' : 'useComponentStyle.js';
  resource.request = path.join(__dirname, 'src/client/theme/zeroRuntime', stub);
  patchesApplied.add(`style:${folder}`);
});

const noTooltipUniqueProvider = new webpack.NormalModuleReplacementPlugin(
  /^\.\.\/tooltip\/UniqueProvider$/,
  (resource) => {
    if (antdFolder(resource.context) === 'config-provider') {
      resource.request = path.join(__dirname, 'src/client/theme/zeroRuntime/NoTooltipUniqueProvider.js');
      patchesApplied.add('tooltip-unique-provider');
    }
  },
);

// Parts that the first load's Card and Typography import but the shop's first pages never render
// come on demand, when first rendered (src/client/theme/zeroRuntime/onDemand.js). Each entry: the
// importing folder in antd/es, the import as written there, and its stand-in.
const ON_DEMAND_PARTS = [
  ['card', '../tabs', 'OnDemandTabs.js'],
  ['card', '../skeleton', 'OnDemandSkeleton.js'],
  ['typography/Base', '../../tooltip', 'OnDemandTooltip.js'],
  ['typography/Base', '../Editable', 'OnDemandTypographyEditor.js'],
  ['typography/Base', './CopyBtn', 'OnDemandTypographyCopyButton.js'],
];
const onDemandParts = new webpack.NormalModuleReplacementPlugin(/^\.\.?\//, (resource) => {
  const folder = antdFolder(resource.context);
  const part = ON_DEMAND_PARTS.find(([from, request]) => from === folder && request === resource.request);
  if (!part) return;
  resource.request = path.join(__dirname, 'src/client/theme/zeroRuntime', part[2]);
  patchesApplied.add(`on-demand:${part[2]}`);
});

// antd's form context (which Card reads for its variant) imports FormProvider from the index of
// @rc-component/form, and that index keeps all of rc-form (fields, validation: 12 KB gzip) in the
// bundle. The same FormProvider, from its own module.
const formProviderOnly = new webpack.NormalModuleReplacementPlugin(/^@rc-component\/form$/, (resource) => {
  if (resource.contextInfo.issuer === path.join(ANTD_ES, 'form/context.js')) {
    resource.request = '@rc-component/form/es/FormContext';
    patchesApplied.add('form-provider');
  }
});

/** A zero-runtime folder's component as antd exports it: 'input-number' → 'InputNumber'. */
const componentName = (folder) => folder.replace(/(^|-)(\w)/g, (_match, _dash, letter) => letter.toUpperCase());

/**
 * Fails the build when the replacements above and src/client/theme/antdComponents.ts disagree, or
 * when antd no longer has what a replacement relies on (after an upgrade of antd, say). Either
 * would go unnoticed otherwise: a component whose style hook is replaced but whose CSS is not made
 * at build time renders unstyled, and a replacement that no longer applies silently brings back
 * what it kept out of the first load (tens of KB).
 */
class AntdPatchesCheckPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('AntdPatchesCheckPlugin', (compilation) => {
      patchesApplied.clear();
      compilation.hooks.afterSeal.tap('AntdPatchesCheckPlugin', () => {
        for (const message of antdPatchProblems()) compilation.errors.push(new webpack.WebpackError(message));
      });
    });
  }
}

function antdPatchProblems() {
  const { ANTD_STYLE_GROUPS } = require('tsx/cjs/api').require('./src/client/theme/antdComponents.ts', __filename);
  const styled = new Set(Object.values(ANTD_STYLE_GROUPS).flat());
  const problems = [];
  for (const folder of ZERO_RUNTIME_STYLED) {
    if (!patchesApplied.has(`style:${folder}`))
      problems.push(
        `antd/es/${folder} imported no './style' module in this build: antd has moved its style hook, or the shop no longer renders ${componentName(folder)}. Update ZERO_RUNTIME_STYLED in webpack.config.js.`,
      );
    if (!styled.has(componentName(folder)))
      problems.push(
        `${componentName(folder)}'s style hook is replaced (ZERO_RUNTIME_STYLED in webpack.config.js) but no group of src/client/theme/antdComponents.ts lists it, so it would render unstyled: add it to the group whose pages render it.`,
      );
  }
  for (const [from, request, standIn] of ON_DEMAND_PARTS)
    if (!patchesApplied.has(`on-demand:${standIn}`))
      problems.push(
        `antd/es/${from} no longer imports '${request}': update ON_DEMAND_PARTS in webpack.config.js (and src/client/theme/zeroRuntime/${standIn}) to where antd imports it now.`,
      );
  if (!patchesApplied.has('tooltip-unique-provider'))
    problems.push(
      "antd/es/config-provider no longer imports '../tooltip/UniqueProvider': update noTooltipUniqueProvider in webpack.config.js (src/client/theme/zeroRuntime/NoTooltipUniqueProvider.js).",
    );
  if (!patchesApplied.has('form-provider'))
    problems.push(
      "antd/es/form/context.js no longer imports '@rc-component/form': update formProviderOnly in webpack.config.js.",
    );
  return problems;
}

module.exports = (_env, argv) => {
  const production = argv.mode !== 'development';
  buildAntdStyles();
  return {
    mode: production ? 'production' : 'development',
    entry: { main: './src/client/main.tsx' },
    output: {
      path: path.resolve(__dirname, 'dist'),
      publicPath: '/',
      filename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:12][ext]',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      alias: {
        '@': path.resolve(__dirname, 'src/client'),
        '@shared': path.resolve(__dirname, 'src/shared'),
        'resize-observer-polyfill$': path.resolve(__dirname, 'src/client/shims/nativeResizeObserver.ts'),
        // react-router's package exports name its development build for every bundler condition;
        // the production one has no dev-only checks and warnings (a third less to run).
        ...(production
          ? { 'react-router$': path.resolve(__dirname, 'node_modules/react-router/dist/production/index.mjs') }
          : {}),
      },
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          // Type errors are reported by `npm run typecheck`; the build only transpiles.
          use: {
            loader: 'ts-loader',
            options: { transpileOnly: true, configFile: path.resolve(__dirname, 'tsconfig.client.json') },
          },
        },
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
        { test: /\.(png|svg|jpe?g|gif|woff2?|ttf|eot)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      zeroRuntimeStyles,
      noTooltipUniqueProvider,
      onDemandParts,
      formProviderOnly,
      new AntdPatchesCheckPlugin(),
      new webpack.DefinePlugin({
        'process.env.API_URL': JSON.stringify(apiUrl()),
        'process.env.CONTACT_EMAIL': JSON.stringify(process.env.CONTACT_EMAIL || 'opt@myagkiy-opt.example'),
      }),
      new HtmlWebpackPlugin({ template: './public/index.html', favicon: './public/favicon.svg' }),
      ...(production ? [new InlineEntryCssPlugin()] : []),
      new AssetManifestPlugin(),
      new MiniCssExtractPlugin({
        filename: production ? 'assets/[name].[contenthash:8].css' : 'assets/[name].css',
        chunkFilename: production ? 'assets/[name].[contenthash:8].css' : 'assets/[name].css',
      }),
      ...(production
        ? [
            new CompressionPlugin({
              filename: '[path][base].gz',
              algorithm: 'gzip',
              test: /\.(js|css|html|svg)$/,
              threshold: 1024,
            }),
            new CompressionPlugin({
              filename: '[path][base].br',
              algorithm: 'brotliCompress',
              test: /\.(js|css|html|svg)$/,
              compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
              threshold: 1024,
            }),
          ]
        : []),
    ],
    optimization: {
      minimizer: [
        '...',
        // postcss-calc cannot parse the trigonometric calc() of antd's Steps (used by Timeline) and
        // warned on every build; the browsers compute those expressions themselves anyway.
        new CssMinimizerPlugin({ minimizerOptions: { preset: ['default', { calc: false }] } }),
      ],
      splitChunks: { chunks: 'all' },
      runtimeChunk: 'single',
    },
    devtool: production ? 'hidden-source-map' : 'eval-cheap-module-source-map',
    performance: { hints: false },
    devServer: {
      port: Number(process.env.DEV_PORT || 8080),
      hot: true,
      historyApiFallback: true,
      // The API answers on its own port; the browser sees one origin, as in production.
      proxy: [{ context: ['/api'], target: `http://127.0.0.1:${process.env.PORT || 3000}` }],
    },
  };
};

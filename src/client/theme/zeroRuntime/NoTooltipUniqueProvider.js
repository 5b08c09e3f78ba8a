// Stands in for antd's tooltip UniqueProvider (antd/es/tooltip/UniqueProvider) in the browser
// build (webpack.config.js). ConfigProvider imports it statically but renders it only when
// `tooltip.unique` is configured, which the shop never does; the real one brings
// @rc-component/trigger (the popup engine) into the first load of every page.
export default function NoTooltipUniqueProvider({ children }) {
  return children;
}

// Stands in for an antd sub-style component (e.g. antd/es/button/style/compact), which renders
// nothing and only registers CSS at run time: see useComponentStyle.js.
export default function NoStyleComponent() {
  return null;
}

// Parts of antd components that the first load's Card and Typography import but that the shop's
// first pages never render: Card's tab bar and loading skeleton, Typography's tooltip, editor and
// copy button (Tabs with Dropdown and Menu, Skeleton, Tooltip with the popup engine, TextArea:
// about 45 KB gzip). The browser build points those imports at modules made with this
// (webpack.config.js), so a page that does render one (a Card with `tabList` or `loading`, a
// Typography with `editable`, `copyable` or an ellipsis tooltip) still gets the real part: its code
// arrives the first time it renders, and until then `fallback` stands in.
import { createElement, lazy, Suspense } from 'react';

const nothing = () => null;

export function onDemand(load, fallback = nothing) {
  const Part = lazy(load);
  return function OnDemandPart(props) {
    return createElement(Suspense, { fallback: fallback(props) }, createElement(Part, props));
  };
}

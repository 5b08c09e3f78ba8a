// react-slick bundles a ResizeObserver polyfill that every browser the shop supports has natively:
// webpack resolves 'resize-observer-polyfill' to this instead (33 KB less to parse on a phone).
export default globalThis.ResizeObserver;

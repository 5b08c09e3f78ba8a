// Stands in for an antd component's style hook (antd/es/<component>/style) in the browser build
// (webpack.config.js). With zeroRuntime the real hook registers nothing, yet it brings the
// component's whole style generator (and the CSS-in-JS serialiser) into the bundle, and it still
// computes the component's tokens and injects them as CSS variables at run time. Both the rules
// and those variables are in the build-time stylesheet (scripts/build-antd-styles.tsx), so all
// the component needs from its hook is the two class names: the hash (empty: hashed is off) and
// the theme's CSS-variable class.
import { useToken } from 'antd/es/theme/internal';

export default function useComponentStyle() {
  const [, , hashId, , cssVar] = useToken();
  return [hashId, cssVar.key];
}

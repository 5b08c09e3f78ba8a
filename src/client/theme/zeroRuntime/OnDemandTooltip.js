import { onDemand } from './onDemand';

// Until the tooltip's code has arrived, what it wraps is shown without it.
export default onDemand(
  () => import(/* webpackChunkName: "antd-tooltip" */ 'antd/es/tooltip'),
  ({ children }) => children,
);

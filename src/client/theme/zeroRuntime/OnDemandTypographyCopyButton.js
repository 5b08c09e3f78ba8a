import { onDemand } from './onDemand';

export default onDemand(() => import(/* webpackChunkName: "antd-typography-copy" */ 'antd/es/typography/Base/CopyBtn'));

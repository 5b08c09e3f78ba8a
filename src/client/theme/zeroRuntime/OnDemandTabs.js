import { onDemand } from './onDemand';

export default onDemand(() => import(/* webpackChunkName: "antd-tabs" */ 'antd/es/tabs'));

import { onDemand } from './onDemand';

export default onDemand(() => import(/* webpackChunkName: "antd-skeleton" */ 'antd/es/skeleton'));

import { onDemand } from './onDemand';

export default onDemand(() => import(/* webpackChunkName: "antd-typography-editor" */ 'antd/es/typography/Editable'));

import { RequisitesBody, RequisitesParams, RequisitesSchema } from '../../../shared/schemas/requisites';
import { bearer, errors } from '../common-schemas';

export const getRequisites = {
  tags: ['requisites'],
  summary: 'Реквизиты покупателя для следующего заказа (пока не сохранены — из последнего заказа)',
  security: bearer,
  params: RequisitesParams,
  response: { 200: RequisitesSchema, ...errors(401, 403, 422) },
};

export const saveRequisites = {
  tags: ['requisites'],
  summary: 'Сохранить реквизиты покупателя',
  security: bearer,
  params: RequisitesParams,
  body: RequisitesBody,
  response: { 200: RequisitesSchema, ...errors(401, 403, 422) },
};

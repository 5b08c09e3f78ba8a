import { RequisitesParams, RequisitesSaveBody, RequisitesSchema } from '../../../shared/schemas/requisites';
import { bearer, errors } from '../common-schemas';

export const getRequisites = {
  tags: ['requisites'],
  summary:
    'Реквизиты для следующего заказа: контакты сотрудника и юрлицо компании по умолчанию (пока не сохранены — из последнего заказа)',
  security: bearer,
  params: RequisitesParams,
  response: { 200: RequisitesSchema, ...errors(401, 403, 422) },
};

export const saveRequisites = {
  tags: ['requisites'],
  summary:
    'Сохранить контакты сотрудника и выбрать юрлицо компании по умолчанию (legal_entity_id, или ИНН, КПП и название; выбирают владелец и бухгалтер)',
  security: bearer,
  params: RequisitesParams,
  body: RequisitesSaveBody,
  response: { 200: RequisitesSchema, ...errors(401, 403, 404, 409, 422) },
};

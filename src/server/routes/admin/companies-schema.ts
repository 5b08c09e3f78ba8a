import { Type } from 'typebox';
import {
  AdminCompaniesQuery,
  AdminCompanyListSchema,
  AdminCompanyMergeBody,
  AdminCompanyParams,
  AdminCompanyPatchBody,
  AdminCompanySchema,
  StaffParams,
  StaffProfileBody,
  StaffProfileSchema,
} from '../../../shared/schemas/company';
import { errors, managersOnly } from '../common-schemas';

export const listCompanies = managersOnly({
  summary: 'Компании покупателей: поиск по названию, ИНН и e-mail сотрудника; mine — только свои клиенты',
  querystring: AdminCompaniesQuery,
  response: { 200: AdminCompanyListSchema, ...errors(422) },
});

export const getCompany = managersOnly({
  summary: 'Компания: сотрудники, юрлица (с предупреждением о том же ИНН и КПП у других), заказы, журнал',
  params: AdminCompanyParams,
  response: { 200: AdminCompanySchema, ...errors(404, 422) },
});

export const updateCompany = managersOnly({
  summary: 'Переименовать, заблокировать или разблокировать, отметить проверенной, назначить менеджера',
  description:
    'Заблокированная компания: сотрудники входят и видят свои заказы и счета, но заказы не оформляются (403 с причиной). ' +
    'manager_id — аккаунт менеджера магазина (404, если это не менеджер); null снимает.',
  params: AdminCompanyParams,
  body: AdminCompanyPatchBody,
  response: { 200: AdminCompanySchema, ...errors(404, 422) },
});

export const mergeCompanies = managersOnly({
  summary: 'Объединить: сотрудники, заказы, адреса и юрлица компании from_company_id переходят в эту, она распускается',
  description: 'Владельцы присоединённой компании становятся закупщиками. 409 — та же компания.',
  params: AdminCompanyParams,
  body: AdminCompanyMergeBody,
  response: { 200: AdminCompanySchema, ...errors(404, 409, 422) },
});

export const listStaff = managersOnly({
  summary: 'Менеджеры магазина: что видят покупатели (имя, телефон, e-mail, мессенджер) и сколько компаний ведут',
  response: { 200: Type.Array(StaffProfileSchema) },
});

export const updateStaff = managersOnly({
  summary: 'Изменить, что покупатели видят о менеджере',
  params: StaffParams,
  body: StaffProfileBody,
  response: { 200: StaffProfileSchema, ...errors(404, 422) },
});

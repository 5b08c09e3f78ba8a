import type { AuditAction, AuditEntity } from '@shared/audit';

// The journal's actions and entities are codes ('product.create', 'supplier_requisites'); every code
// the server writes is in @shared/audit, so a new one without a Russian name here fails the typecheck.
// An entry written by an older server with a code no longer in use shows the code itself.

const ACTIONS: Record<AuditAction, string> = {
  'product.create': 'Создание товара',
  'product.update': 'Изменение товара',
  'product.hide': 'Снятие товара с витрины',
  'product.photos': 'Изменение фото товара',
  'variant.create': 'Добавление варианта',
  'variant.update': 'Изменение варианта',
  'variant.delete': 'Удаление варианта',
  'category.create': 'Создание категории',
  'category.update': 'Изменение категории',
  'category.delete': 'Удаление категории',
  'banner.create': 'Создание баннера',
  'banner.update': 'Изменение баннера',
  'banner.delete': 'Удаление баннера',
  'image.upload': 'Загрузка картинки',
  'invoice.issue': 'Выставление счёта',
  'catalogue.import': 'Импорт прайс-листа',
  'settings.requisites': 'Изменение реквизитов поставщика',
  'user.role': 'Смена роли пользователя',
  'user.exchange': 'Доступ к обмену с 1С',
  'buyer.trust': 'Отметка «проверенный покупатель»',
  'buyer.distrust': 'Снятие отметки «проверенный покупатель»',
  'company.block': 'Блокировка компании',
  'company.unblock': 'Разблокировка компании',
  'company.trust': 'Отметка «проверенная компания»',
  'company.distrust': 'Снятие отметки «проверенная компания»',
  'company.manager': 'Смена персонального менеджера',
  'company.merge': 'Объединение компаний',
  'company.rename': 'Переименование компании',
  'company.invite': 'Приглашение сотрудника',
  'company.invitation.accept': 'Принятие приглашения',
  'company.invitation.revoke': 'Отзыв приглашения',
  'company.member.role': 'Смена роли сотрудника',
  'company.member.remove': 'Удаление сотрудника из компании',
  'legal_entity.create': 'Добавление юрлица',
  'legal_entity.update': 'Изменение юрлица',
  'legal_entity.delete': 'Удаление юрлица',
  'staff.profile': 'Изменение профиля менеджера',
  'price_type.create': 'Создание типа цен',
  'price_type.update': 'Изменение типа цен',
  'price_type.delete': 'Удаление типа цен',
  'variant.prices': 'Изменение цен варианта по типам цен',
  'product.prices': 'Изменение цен по количеству товара',
  'company.price_type': 'Смена типа цен компании',
  'company.feed.issue': 'Новый адрес фида товаров',
  'company.feed.revoke': 'Отключение фида товаров',
  'settings.storefront': 'Изменение настроек витрины',
  'exchange.settings': 'Изменение настроек обмена с 1С',
  'exchange.price_type': 'Сопоставление типа цен 1С',
  'exchange.warehouse': 'Выбор склада 1С для остатков',
  'exchange.resend': 'Повторная отправка заказов в 1С',
  'conformity_document.create': 'Добавление документа соответствия',
  'conformity_document.update': 'Изменение документа соответствия',
  'conformity_document.pdf': 'Замена PDF документа соответствия',
  'conformity_document.products': 'Изменение товаров документа соответствия',
  'conformity_document.delete': 'Удаление документа соответствия',
};

const ENTITIES: Record<AuditEntity, string> = {
  product: 'Товар',
  variant: 'Вариант',
  category: 'Категория',
  banner: 'Баннер',
  image: 'Картинка',
  order: 'Заказ',
  catalogue: 'Каталог',
  supplier_requisites: 'Реквизиты поставщика',
  user: 'Пользователь',
  company: 'Компания',
  price_type: 'Тип цен',
  settings: 'Настройки',
  conformity_document: 'Документ соответствия',
};

const named = <Code extends string>(names: Record<Code, string>, code: string): string =>
  Object.hasOwn(names, code) ? names[code as Code] : code;

/** «Изменение реквизитов поставщика» for 'settings.requisites'; the code itself for one this page does not know. */
export const actionName = (action: string) => named(ACTIONS, action);

/** «Реквизиты поставщика» for 'supplier_requisites'; the code itself for one this page does not know. */
export const entityName = (entity: string) => named(ENTITIES, entity);

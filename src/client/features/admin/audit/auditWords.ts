// The journal's actions are codes ('product.create', 'invoice.issue': src/server/repositories/audit.ts);
// the page names them in Russian and keeps the code beside, so a code it does not know still shows.

const VERBS: Record<string, string> = {
  create: 'создание',
  update: 'изменение',
  delete: 'удаление',
  hide: 'скрытие',
  restore: 'возврат на витрину',
  issue: 'выставление',
  import: 'импорт',
  upload: 'загрузка',
  status: 'смена статуса',
  role: 'смена роли',
  trust: 'отметка «проверенный покупатель»',
  distrust: 'снятие отметки «проверенный покупатель»',
};

const ENTITIES: Record<string, string> = {
  product: 'товар',
  variant: 'вариант',
  category: 'категория',
  banner: 'баннер',
  image: 'картинка',
  order: 'заказ',
  invoice: 'счёт',
  catalogue: 'каталог',
  settings: 'настройки',
  requisites: 'реквизиты',
  supplier_requisites: 'реквизиты поставщика',
  user: 'пользователь',
};

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** «Изменение» for 'variant.update'; the code itself for one this page does not know. */
export function actionName(action: string): string {
  const verb = VERBS[action.slice(action.lastIndexOf('.') + 1)];
  return verb ? capitalised(verb) : action;
}

/** «Вариант» for 'variant'; the code itself for one this page does not know. */
export function entityName(entity: string): string {
  const name = ENTITIES[entity];
  return name ? capitalised(name) : entity;
}

import type { CatalogueHeader, GroupRecord, ImportRecord, NamedValue, ProductRecord } from './records';
import { endsWith, isTrue, parseDecimal, readCommerceMl, type ElementHandler, type ReaderContext } from './xml-reader';

/**
 * import.xml: the Классификатор's groups (and the properties its products' values refer to), the
 * Каталог's header and its Товары. 1С writes the Классификатор first, so a product's property
 * values are resolved as it is read, without holding the products.
 */

/** A Свойство of the Классификатор: its name, and its Справочник's values by ИдЗначения. */
interface Property {
  name: string;
  values: Map<string, string>;
}

interface OpenGroup {
  id: string;
  name: string;
  emitted: boolean;
}

const newProduct = (): ProductRecord => ({
  kind: 'product',
  id: '',
  article: '',
  name: '',
  description: '',
  descriptionIsHtml: false,
  groupIds: [],
  pictures: [],
  barcode: '',
  characteristics: [],
  requisites: [],
  properties: [],
  unitCoefficient: null,
  deleted: false,
});

function importHandler({ emit, fail }: ReaderContext<ImportRecord>): ElementHandler {
  const properties = new Map<string, Property>();
  let property: (Property & { id: string }) | null = null;
  let dictionaryValue = { id: '', value: '' };

  const groups: OpenGroup[] = [];
  /** Emits the innermost open group once its Ид and Наименование are read (before its subgroups). */
  const emitGroup = () => {
    const group = groups.at(-1);
    if (!group || group.emitted) return;
    if (!group.id) fail('у группы нет Ид');
    group.emitted = true;
    const record: GroupRecord = {
      kind: 'group',
      id: group.id,
      name: group.name,
      parentId: groups.at(-2)?.id ?? null,
      path: groups.map(({ name }) => name),
    };
    emit(record);
  };

  let catalogue: CatalogueHeader | null = null;
  const emitCatalogue = () => {
    if (!catalogue) return;
    if (!catalogue.id) fail('у каталога нет Ид');
    emit(catalogue);
    catalogue = null;
  };

  /** The open Товар, and how deep it is: only its own children are its fields (not a Комплектующее's). */
  let product: ProductRecord | null = null;
  let productDepth = 0;
  let pair: NamedValue = { name: '', value: '' };
  let propertyValue = { id: '', name: '', values: [] as string[] };

  const inClassifier = (stack: readonly string[]) => stack[1] === 'Классификатор';

  return {
    open(stack, attributes) {
      const name = stack.at(-1);
      if (inClassifier(stack)) {
        if (name === 'Группа' && endsWith(stack, 'Группы', 'Группа')) {
          emitGroup();
          groups.push({ id: '', name: '', emitted: false });
        } else if (name === 'Свойство' && endsWith(stack, 'Классификатор', 'Свойства', 'Свойство')) {
          property = { id: '', name: '', values: new Map() };
        } else if (name === 'Справочник' && property) dictionaryValue = { id: '', value: '' };
        return;
      }
      if (stack.length === 2 && name === 'Каталог') {
        catalogue = { kind: 'catalogue', id: '', changesOnly: isTrue(attributes['СодержитТолькоИзменения'] ?? '') };
      } else if (catalogue && stack.length === 3 && name === 'Товары') {
        emitCatalogue();
      } else if (!product && name === 'Товар' && endsWith(stack, 'Каталог', 'Товары', 'Товар')) {
        product = newProduct();
        productDepth = stack.length;
        if (attributes['Статус'] === 'Удален') product.deleted = true;
      } else if (product) {
        const field = stack.slice(productDepth);
        if (field.length === 1 && name === 'Описание') {
          product.descriptionIsHtml = isTrue(attributes['ФорматHTML'] ?? '');
        } else if (field.length === 2 && (name === 'ХарактеристикаТовара' || name === 'ЗначениеРеквизита')) {
          pair = { name: '', value: '' };
        } else if (field.length === 2 && name === 'ЗначенияСвойства') {
          propertyValue = { id: '', name: '', values: [] };
        }
      }
    },

    close(stack, text) {
      const name = stack.at(-1);
      if (inClassifier(stack)) {
        const group = groups.at(-1);
        if (name === 'Группа' && group && endsWith(stack, 'Группы', 'Группа')) {
          emitGroup();
          groups.pop();
        } else if (group && endsWith(stack, 'Группа', 'Ид')) group.id = text;
        else if (group && endsWith(stack, 'Группа', 'Наименование')) group.name = text;
        else if (property) {
          if (endsWith(stack, 'Свойства', 'Свойство')) {
            if (property.id) properties.set(property.id, { name: property.name, values: property.values });
            property = null;
          } else if (endsWith(stack, 'Свойство', 'Ид')) property.id = text;
          else if (endsWith(stack, 'Свойство', 'Наименование')) property.name = text;
          else if (endsWith(stack, 'Справочник', 'ИдЗначения')) dictionaryValue.id = text;
          else if (endsWith(stack, 'Справочник', 'Значение')) dictionaryValue.value = text;
          else if (name === 'Справочник' && dictionaryValue.id)
            property.values.set(dictionaryValue.id, dictionaryValue.value);
        }
        return;
      }
      if (stack.length === 2 && name === 'Каталог') {
        emitCatalogue();
        return;
      }
      if (catalogue && stack.length === 3) {
        if (name === 'Ид') catalogue.id = text;
        else if (name === 'СодержитТолькоИзменения') catalogue.changesOnly = isTrue(text);
        return;
      }
      if (!product) return;
      const field = stack.slice(productDepth);
      if (field.length === 0) {
        if (!product.id) fail('у товара нет Ид');
        emit(product);
        product = null;
        return;
      }
      const [first] = field;
      if (field.length === 1) {
        if (name === 'Ид') product.id = text;
        else if (name === 'Артикул') product.article = text;
        else if (name === 'Наименование') product.name = text;
        else if (name === 'Описание') product.description = text;
        else if (name === 'Картинка' && text) product.pictures.push(text);
        else if (name === 'Штрихкод') product.barcode = text;
        else if (name === 'ПометкаУдаления') product.deleted ||= isTrue(text);
        else if (name === 'Статус') product.deleted ||= text === 'Удален';
      } else if (first === 'Группы' && field.length === 2 && name === 'Ид') {
        if (text) product.groupIds.push(text);
      } else if (first === 'ХарактеристикиТовара' || first === 'ЗначенияРеквизитов') {
        const list = first === 'ХарактеристикиТовара' ? product.characteristics : product.requisites;
        if (field.length === 3 && name === 'Наименование') pair.name = text;
        else if (field.length === 3 && name === 'Значение') pair.value = pair.value ? `${pair.value}, ${text}` : text;
        else if (field.length === 2 && pair.name) list.push(pair);
      } else if (first === 'ЗначенияСвойств') {
        if (field.length === 3 && name === 'Ид') propertyValue.id = text;
        else if (field.length === 3 && name === 'Наименование') propertyValue.name = text;
        else if (field.length === 3 && name === 'Значение' && text) propertyValue.values.push(text);
        else if (field.length === 2) {
          const known = properties.get(propertyValue.id);
          const propertyName = known?.name || propertyValue.name || propertyValue.id;
          for (const value of propertyValue.values)
            product.properties.push({ name: propertyName, value: known?.values.get(value) ?? value });
        }
      } else if (first === 'БазоваяЕдиница' && name === 'Коэффициент' && endsWith(stack, 'Пересчет', 'Коэффициент')) {
        const coefficient = parseDecimal(text, 'Коэффициент', fail);
        if (coefficient !== null && coefficient > 1) product.unitCoefficient = coefficient;
      }
    },
  };
}

/** The records of an import.xml (import0_1.xml…), in the file's order, in batches. */
export function readImportFile(path: string, fileName: string): AsyncIterable<ImportRecord[]> {
  return readCommerceMl(path, fileName, importHandler);
}

import { Form, Input, type TableColumnsType } from 'antd';
import { useState } from 'react';
import type { AdminCategory, CategoryFields } from '@shared/api';
import {
  useCreateCategoryMutation,
  useDeleteCategoryMutation,
  useGetAdminCategoriesQuery,
  useUpdateCategoryMutation,
} from './catalogueAdminApi';
import { CATALOGUE_LIMITS } from '@shared/catalogue';
import { CatalogueList, RowActions, useRowAction } from './CatalogueList';
import { EditDialog, PositionItem } from './EditDialog';
import './catalogueAdmin.css';

interface CategoryForm {
  name: string;
  position?: number | null;
}

/** Only what the dialog changed; nothing when nothing did. */
function categoryChanges(category: AdminCategory, { name, position }: CategoryForm): Partial<CategoryFields> {
  const changes: Partial<CategoryFields> = {};
  if (name.trim() !== category.name) changes.name = name.trim();
  if (typeof position === 'number' && position !== category.position) changes.position = position;
  return changes;
}

// Mounted afresh for each opening, so its form starts from the category being changed.
function CategoryDialog({ category, onClose }: { category?: AdminCategory; onClose(): void }) {
  const [create, creating] = useCreateCategoryMutation();
  const [update, updating] = useUpdateCategoryMutation();

  const save = async (values: CategoryForm) => {
    if (!category) {
      const position = typeof values.position === 'number' ? { position: values.position } : {};
      await create({ name: values.name.trim(), ...position }).unwrap();
      return 'Категория добавлена';
    }
    const patch = categoryChanges(category, values);
    if (!Object.keys(patch).length) return null;
    await update({ id: category.id, patch }).unwrap();
    return 'Категория сохранена';
  };

  return (
    <EditDialog<CategoryForm>
      title={category ? `Категория «${category.name}»` : 'Новая категория'}
      initialValues={category ?? {}}
      saving={creating.isLoading || updating.isLoading}
      save={save}
      failureText="Не удалось сохранить категорию"
      onClose={onClose}
    >
      <Form.Item
        label="Название"
        name="name"
        rules={[{ required: true, whitespace: true, message: 'Укажите название' }]}
      >
        <Input maxLength={CATALOGUE_LIMITS.categoryNameMax} autoComplete="off" />
      </Form.Item>
      <PositionItem label="Позиция в меню" adding={!category} whenEmpty="Пусто — в конец списка" />
    </EditDialog>
  );
}

/** Категории: the storefront's menu in its order, how many products each holds, rename, reorder, delete. */
export default function CategoriesPage() {
  const { data: categories, isFetching, isError } = useGetAdminCategoriesQuery();
  const [remove] = useDeleteCategoryMutation();
  const [editing, setEditing] = useState<{ category?: AdminCategory } | null>(null);
  const { attempt, failure, dismissFailure } = useRowAction();

  const columns: TableColumnsType<AdminCategory> = [
    { title: 'Название', dataIndex: 'name' },
    { title: 'Позиция', dataIndex: 'position', align: 'right', width: 110 },
    { title: 'Товаров', dataIndex: 'products_count', align: 'right', width: 110 },
    {
      title: 'Действия',
      key: 'actions',
      width: 120,
      render: (_value, category) => (
        <RowActions
          editLabel={`Изменить категорию «${category.name}»`}
          deleteLabel={`Удалить категорию «${category.name}»`}
          confirmDelete={`Удалить категорию «${category.name}»?`}
          onEdit={() => setEditing({ category })}
          onDelete={() =>
            attempt(
              () => remove(category.id).unwrap(),
              `Категория «${category.name}» удалена`,
              'Не удалось удалить категорию',
            )
          }
        />
      ),
    },
  ];

  return (
    <CatalogueList
      title="Категории"
      addLabel="Добавить категорию"
      onAdd={() => setEditing({})}
      loadFailure={isError ? 'Не удалось загрузить категории' : undefined}
      failure={failure}
      onDismissFailure={dismissFailure}
      columns={columns}
      rows={categories}
      loading={isFetching}
      emptyText="Категорий нет"
    >
      {editing && <CategoryDialog category={editing.category} onClose={() => setEditing(null)} />}
    </CatalogueList>
  );
}

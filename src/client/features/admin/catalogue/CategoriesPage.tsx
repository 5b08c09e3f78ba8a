import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Flex,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Table,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import type { AdminCategory, CategoryFields } from '@shared/api';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageTitle } from '@/components/PageTitle';
import {
  useCreateCategoryMutation,
  useDeleteCategoryMutation,
  useGetAdminCategoriesQuery,
  useUpdateCategoryMutation,
} from './catalogueAdminApi';
import { CATALOGUE_LIMITS } from '@shared/api';
import { EditDialog } from './EditDialog';
import './catalogueAdmin.css';
import { emptyTable } from '../tableEmpty';

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
      <Form.Item
        label="Позиция в меню"
        name="position"
        extra={category ? undefined : 'Пусто — в конец списка'}
        rules={[
          { required: Boolean(category), message: 'Укажите позицию' },
          {
            type: 'integer',
            min: 0,
            max: CATALOGUE_LIMITS.positionMax,
            message: 'Позиция — целое число, не меньше нуля',
          },
        ]}
      >
        <InputNumber controls={false} style={{ width: 160 }} />
      </Form.Item>
    </EditDialog>
  );
}

/** Категории: the storefront's menu in its order, how many products each holds, rename, reorder, delete. */
export default function CategoriesPage() {
  const { data: categories, isFetching, isError } = useGetAdminCategoriesQuery();
  const [remove] = useDeleteCategoryMutation();
  const { message } = App.useApp();
  const [editing, setEditing] = useState<{ category?: AdminCategory } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const columns: TableColumnsType<AdminCategory> = [
    { title: 'Название', dataIndex: 'name' },
    { title: 'Позиция', dataIndex: 'position', align: 'right', width: 110 },
    { title: 'Товаров', dataIndex: 'products_count', align: 'right', width: 110 },
    {
      title: 'Действия',
      key: 'actions',
      width: 120,
      render: (_value, category) => (
        <Flex gap="small">
          <Button
            type="text"
            icon={<EditOutlined />}
            aria-label={`Изменить категорию «${category.name}»`}
            onClick={() => setEditing({ category })}
          />
          <Popconfirm
            title={`Удалить категорию «${category.name}»?`}
            okText="Удалить"
            cancelText="Отмена"
            onConfirm={async () => {
              setFailure(null);
              try {
                await remove(category.id).unwrap();
                message.success(`Категория «${category.name}» удалена`);
              } catch (error) {
                setFailure(serverErrorDetail(error) ?? 'Не удалось удалить категорию');
              }
            }}
          >
            <Button type="text" danger icon={<DeleteOutlined />} aria-label={`Удалить категорию «${category.name}»`} />
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <>
      <PageTitle name="Категории" />
      <div className="admin-page-head">
        <Typography.Title>Категории</Typography.Title>
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing({})}>
          Добавить категорию
        </Button>
      </div>
      {isError && <Alert type="error" showIcon title="Не удалось загрузить категории" />}
      {failure && <Alert type="error" showIcon closable title={failure} onClose={() => setFailure(null)} />}
      <Table
        rowKey="id"
        columns={columns}
        dataSource={categories}
        loading={isFetching}
        pagination={false}
        locale={emptyTable('Категорий нет')}
        scroll={{ x: 'max-content' }}
      />
      {editing && <CategoryDialog category={editing.category} onClose={() => setEditing(null)} />}
    </>
  );
}

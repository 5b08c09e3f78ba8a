import { ArrowLeftOutlined } from '@ant-design/icons';
import { Alert, App, Button, Flex, Form, Input, Popconfirm, Select, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { AdminProduct } from '@shared/api';
import { LIMITS } from '@shared/limits';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageLoading } from '@/components/PageLoading';
import { PageTitle } from '@/components/PageTitle';
import { adminPath, adminProductPath } from '../adminPaths';
import {
  useCreateProductMutation,
  useGetAdminCategoriesQuery,
  useGetAdminProductQuery,
  useSaveProductEditsMutation,
  useSetProductHiddenMutation,
} from './catalogueAdminApi';
import { CATALOGUE_LIMITS } from '@shared/catalogue';
import { ProductPrices } from '../prices/ProductPrices';
import { ImageField } from './ImageField';
import { MarketplaceCardFields } from './MarketplaceCardFields';
import { PhotosEditor } from './PhotosEditor';
import { PackagingItems } from './PackagingItems';
import {
  createBody,
  formValues,
  hasEdits,
  NEW_PRODUCT,
  productEdits,
  type ProductFormValues,
} from './productFormValues';
import { VariantsTable } from './VariantsTable';
import './catalogueAdmin.css';

const required = (message: string) => [{ required: true, whitespace: true, message }];

interface ProductFormProps {
  /** The product being changed; none for a new one. */
  product?: AdminProduct;
  onFailure(detail: string | null): void;
}

// Mounted afresh whenever the product is read again (after a save), so it shows what the server keeps.
function ProductForm({ product, onFailure }: ProductFormProps) {
  const [form] = Form.useForm<ProductFormValues>();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { data: categories, isLoading: categoriesLoading } = useGetAdminCategoriesQuery();
  const [create, creating] = useCreateProductMutation();
  const [save, saving] = useSaveProductEditsMutation();

  const submit = async () => {
    // getFieldsValue(true): the variants' ids have no field of their own but must reach the diff.
    const values = form.getFieldsValue(true) as ProductFormValues;
    onFailure(null);
    try {
      if (!product) {
        const created = await create(createBody(values)).unwrap();
        message.success('Товар добавлен');
        navigate(adminProductPath(created.id), { replace: true });
        return;
      }
      const edits = productEdits(product, values);
      if (!hasEdits(edits)) {
        message.info('Изменений нет');
        return;
      }
      await save(edits).unwrap();
      message.success('Изменения сохранены');
    } catch (error) {
      onFailure(serverErrorDetail(error) ?? 'Не удалось сохранить товар');
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={product ? formValues(product) : NEW_PRODUCT}
      onFinish={submit}
      style={{ maxWidth: 960 }}
    >
      <Form.Item label="Артикул" name="art" rules={required('Укажите артикул')}>
        <Input maxLength={LIMITS.artMax} autoComplete="off" />
      </Form.Item>
      <Form.Item label="Название" name="name" rules={required('Укажите название')}>
        <Input maxLength={LIMITS.nameMax} autoComplete="off" />
      </Form.Item>
      <Form.Item label="Категория" name="category" rules={[{ required: true, message: 'Выберите категорию' }]}>
        <Select
          placeholder="Выберите категорию"
          loading={categoriesLoading}
          options={categories?.map(({ name }) => ({ value: name, label: name }))}
          style={{ maxWidth: 360 }}
        />
      </Form.Item>
      <Form.Item label="Краткое описание" name="description">
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={CATALOGUE_LIMITS.textMax} />
      </Form.Item>
      <Form.Item label="Подробное описание" name="big_description">
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} maxLength={CATALOGUE_LIMITS.textMax} />
      </Form.Item>
      <Form.Item label="Популярный (показывать первым среди популярных)" name="popular" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item label="Картинка" name="image" rules={[{ required: true, message: 'Загрузите картинку' }]}>
        <ImageField alt="Картинка товара" />
      </Form.Item>
      {product && (
        <>
          <Typography.Title level={2}>Упаковка</Typography.Title>
          <PackagingItems />
        </>
      )}
      <Typography.Title level={2}>Карточка для маркетплейсов</Typography.Title>
      <MarketplaceCardFields />
      <Typography.Title level={2}>Варианты</Typography.Title>
      <Flex vertical gap="small">
        <VariantsTable />
      </Flex>
      {!product && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
          Кратность, минимум в строке и цены по типам цен задаются после добавления товара.
        </Typography.Paragraph>
      )}
      <Flex gap="small" wrap style={{ marginTop: 24 }}>
        <Button type="primary" htmlType="submit" loading={creating.isLoading || saving.isLoading}>
          {product ? 'Сохранить' : 'Добавить товар'}
        </Button>
        <Button onClick={() => navigate(adminPath('products'))}>Отмена</Button>
      </Flex>
    </Form>
  );
}

/**
 * «Снять с продажи» (asked first) takes the product off the storefront; «Вернуть в продажу» puts it
 * back. Orders and carts keep their lines either way.
 */
function VisibilityButton({ product }: { product: AdminProduct }) {
  const { message } = App.useApp();
  const [setHidden, { isLoading }] = useSetProductHiddenMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const change = async (hidden: boolean) => {
    setFailure(null);
    try {
      await setHidden({ id: product.id, hidden }).unwrap();
      message.success(hidden ? 'Товар снят с продажи' : 'Товар снова в продаже');
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? 'Не удалось изменить товар');
    }
  };
  return (
    <Flex vertical gap="small" align="end">
      {product.hidden ? (
        <Button loading={isLoading} onClick={() => change(false)}>
          Вернуть в продажу
        </Button>
      ) : (
        <Popconfirm
          title="Снять товар с продажи?"
          description="Он исчезнет с витрины; заказы и корзины сохранят его строки."
          okText="Снять"
          cancelText="Отмена"
          onConfirm={() => change(true)}
        >
          <Button danger loading={isLoading}>
            Снять с продажи
          </Button>
        </Popconfirm>
      )}
      {failure && <Alert type="error" showIcon title={failure} />}
    </Flex>
  );
}

function BackToList() {
  const navigate = useNavigate();
  return (
    <Button type="link" icon={<ArrowLeftOutlined aria-hidden />} onClick={() => navigate(adminPath('products'))}>
      Все товары
    </Button>
  );
}

function EditProduct({ id }: { id: number }) {
  const { data: product, isLoading, isError, fulfilledTimeStamp } = useGetAdminProductQuery(id);
  const [failure, setFailure] = useState<string | null>(null);
  if (isLoading) return <PageLoading />;
  if (isError || !product) return <Alert type="error" showIcon title="Товар не найден" />;
  return (
    <>
      <PageTitle name={`Товар ${product.art}`} />
      <div className="admin-page-head">
        <Typography.Title>{product.name}</Typography.Title>
        {product.hidden && <Tag>Скрыт</Tag>}
        <VisibilityButton product={product} />
      </div>
      {failure && <Alert type="error" showIcon title={failure} />}
      <ProductForm key={fulfilledTimeStamp} product={product} onFailure={setFailure} />
      <PhotosEditor key={`photos-${fulfilledTimeStamp}`} product={product} />
      <ProductPrices product={product} />
    </>
  );
}

function NewProduct() {
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <>
      <PageTitle name="Новый товар" />
      <div className="admin-page-head">
        <Typography.Title>Новый товар</Typography.Title>
      </div>
      {failure && <Alert type="error" showIcon title={failure} />}
      <ProductForm onFailure={setFailure} />
    </>
  );
}

/** The product form: /admin/products/new adds a product, /admin/products/:id changes one. */
export default function ProductFormPage() {
  const { id } = useParams();
  const productId = id === undefined ? null : Number(id);
  return (
    <Flex vertical gap="middle" align="stretch">
      <div>
        <BackToList />
      </div>
      {productId === null ? (
        <NewProduct />
      ) : Number.isInteger(productId) && productId > 0 ? (
        <EditProduct id={productId} />
      ) : (
        <Alert type="error" showIcon title="Товар не найден" />
      )}
    </Flex>
  );
}

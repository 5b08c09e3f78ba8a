import { Alert, Button, Card, Form, Input, Typography, type FormRule } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS, MESSAGES, type Product, type Variant } from '@shared/api';
import { PAGE_PATHS, type CheckoutItem } from '@shared/paths';
import { innProblem, kppProblem } from '@shared/requisites';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useAppSelector } from '@/hooks/reduxHooks';
import { formatPrice } from '@/components/format';
import { PageLoading } from '@/components/PageLoading';
import { useGetProductsByArtsQuery } from '@/features/catalogue/catalogueApi';
import { useCreateOrderMutation } from '@/features/orders/ordersApi';
import { selectUser } from '@/features/session/sessionSlice';
import { BackToCart } from './BackToCart';

interface CheckoutFields {
  name?: string;
  phone?: string;
  companyName?: string;
  inn?: string;
  kpp?: string;
  address?: string;
}

interface Line {
  item: CheckoutItem;
  product: Product;
  variant: Variant;
}

type Lines = { lines: Line[] } | { missing: string };

function resolveLines(items: CheckoutItem[], products: Product[]): Lines {
  const lines: Line[] = [];
  for (const item of items) {
    const product = products.find((candidate) => candidate.art === item.art);
    const variant = product?.variants.find((candidate) => candidate.id === item.variantId);
    if (!product || !variant)
      return { missing: `Не удалось найти вариант с id=${item.variantId} для продукта ${item.art}` };
    lines.push({ item, product, variant });
  }
  return { lines };
}

const blankToNull = (value: string | undefined) => value?.trim() || null;

const innRule = {
  validator: async (_rule: unknown, value: string | undefined) => {
    const inn = blankToNull(value);
    const problem = inn && innProblem(inn);
    if (problem) throw new Error(problem);
  },
};

const kppRule: FormRule = ({ getFieldValue }) => ({
  validator: async (_rule: unknown, value: string | undefined) => {
    const kpp = blankToNull(value);
    const problem = kpp && kppProblem(kpp, blankToNull(getFieldValue('inn')));
    if (problem) throw new Error(problem);
  },
});

export function CheckoutForm({ items }: { items: CheckoutItem[] }) {
  const user = useAppSelector(selectUser)!;
  const navigate = useNavigate();
  const [form] = Form.useForm<CheckoutFields>();
  const [alert, setAlert] = useState<{ title: string; detail?: string } | null>(null);
  const arts = [...new Set(items.map((item) => item.art))];
  const { data: products, isLoading, error } = useGetProductsByArtsQuery(arts);
  const [createOrder, { isLoading: sending }] = useCreateOrderMutation();

  if (isLoading) {
    return (
      <div>
        <Typography.Paragraph>Загрузка товаров...</Typography.Paragraph>
        <PageLoading />
      </div>
    );
  }
  // The old checkout waited on 'Загрузка товаров...' for ever here; see docs/decisions.md.
  if (error || !products) return <BackToCart title="Не удалось загрузить товары заказа" />;
  const resolved = resolveLines(items, products);
  if ('missing' in resolved) return <BackToCart title={resolved.missing} />;
  const { lines } = resolved;
  const totalKopecks = lines.reduce((sum, line) => sum + Math.round(line.variant.price * 100) * line.item.count, 0);

  const submit = async (fields: CheckoutFields) => {
    setAlert(null);
    const address = blankToNull(fields.address);
    if (!blankToNull(fields.name) || !blankToNull(fields.phone) || !address) {
      setAlert({ title: MESSAGES.checkoutRequired });
      return;
    }
    try {
      await createOrder({
        user_id: user.id,
        address,
        items: lines.map(({ item, product }) => ({
          product_id: product.id,
          variant_id: item.variantId,
          quantity: item.count,
        })),
        company_name: blankToNull(fields.companyName),
        company_inn: blankToNull(fields.inn),
        company_kpp: blankToNull(fields.kpp),
        contact_name: blankToNull(fields.name),
        contact_phone: blankToNull(fields.phone),
      }).unwrap();
      navigate(PAGE_PATHS.orderSuccess, { replace: true });
    } catch (failure) {
      setAlert({ title: MESSAGES.orderFailed, detail: serverErrorDetail(failure) });
    }
  };

  return (
    <div className="checkout">
      <Card title="Ваш заказ" className="checkout-lines">
        <ul className="checkout-line-list">
          {lines.map(({ item, product, variant }) => (
            <li key={`${item.art}:${item.variantId}`} className="checkout-line">
              <span>
                <span>
                  {product.name} x {item.count}
                </span>
                <Typography.Text type="secondary" className="checkout-line-variant">
                  {variant.color}, {variant.size} см · арт. {product.art} · {formatPrice(variant.price)} ₽ / шт.
                </Typography.Text>
              </span>
              <Typography.Text strong>{formatPrice(variant.price * item.count)} ₽</Typography.Text>
            </li>
          ))}
        </ul>
        {/* The page's second heading level (it follows the page's h1), drawn at the fourth's size. */}
        <Typography.Title level={2} className="checkout-total">
          Итого: {formatPrice(totalKopecks / 100)}₽
        </Typography.Title>
      </Card>
      <Card title="Данные для заказа" className="checkout-form">
        <Form
          form={form}
          layout="vertical"
          onFinish={submit}
          onValuesChange={() => setAlert(null)}
          requiredMark="optional"
        >
          <Form.Item label="Имя" name="name" required>
            <Input autoComplete="name" maxLength={LIMITS.nameMax} />
          </Form.Item>
          <Form.Item label="Телефон" name="phone" required>
            <Input type="tel" autoComplete="tel" maxLength={LIMITS.phoneMax} />
          </Form.Item>
          <Form.Item label="Название компании" name="companyName">
            <Input autoComplete="organization" maxLength={LIMITS.companyNameMax} />
          </Form.Item>
          <Form.Item label="ИНН" name="inn" rules={[innRule]}>
            <Input maxLength={LIMITS.innMax} inputMode="numeric" />
          </Form.Item>
          <Form.Item label="КПП" name="kpp" dependencies={['inn']} rules={[kppRule]}>
            <Input maxLength={LIMITS.kppLength} inputMode="numeric" />
          </Form.Item>
          <Form.Item label="Адрес доставки" name="address" required>
            <Input.TextArea
              autoSize={{ minRows: 3, maxRows: 6 }}
              autoComplete="street-address"
              maxLength={LIMITS.addressMax}
            />
          </Form.Item>
          {alert && (
            <Alert type="error" showIcon title={alert.title} description={alert.detail} style={{ marginBottom: 16 }} />
          )}
          <Button type="primary" htmlType="submit" size="large" block disabled={sending}>
            {sending ? 'Оформление...' : 'Оформить заказ'}
          </Button>
        </Form>
      </Card>
    </div>
  );
}

import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Form, Input, Modal, Popconfirm } from 'antd';
import { useState } from 'react';
import type { Address, AddressFields } from '@shared/api';
import { LIMITS } from '@shared/limits';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageLoading } from '@/components/PageLoading';
import {
  useCreateAddressMutation,
  useDeleteAddressMutation,
  useGetAddressesQuery,
  useUpdateAddressMutation,
} from './addressesApi';
import './addressBook.css';
import { formatAddress } from './formatAddress';

type AddressForm = Omit<AddressFields, 'user_id'>;

/** What the dialog does: adds a new address, or changes this one. */
type Editing = { address?: Address };

const required = (message: string) => ({ required: true, whitespace: true, message });

// Mounted afresh for each opening, so its form starts from the address being changed.
function AddressDialog({ userId, editing, onClose }: { userId: number; editing: Editing; onClose(): void }) {
  const [form] = Form.useForm<AddressForm>();
  const [create, creating] = useCreateAddressMutation();
  const [update, updating] = useUpdateAddressMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const address = editing.address;

  const submit = async (fields: AddressForm) => {
    const body = { ...fields, apartment_number: fields.apartment_number?.trim() || null, user_id: userId };
    try {
      await (address ? update({ id: address.id, ...body }) : create(body)).unwrap();
      onClose();
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? 'Не удалось сохранить адрес');
    }
  };

  return (
    <Modal
      open
      title={address ? 'Изменить адрес' : 'Новый адрес'}
      okText="Сохранить"
      cancelText="Отмена"
      confirmLoading={creating.isLoading || updating.isLoading}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={address ?? { country: 'Россия' }}
        onFinish={submit}
        onValuesChange={() => setFailure(null)}
      >
        <Form.Item label="Страна" name="country" rules={[required('Укажите страну')]}>
          <Input autoComplete="country-name" maxLength={LIMITS.addressPartMax} />
        </Form.Item>
        <Form.Item label="Город" name="city" rules={[required('Укажите город')]}>
          <Input autoComplete="address-level2" maxLength={LIMITS.addressPartMax} />
        </Form.Item>
        <Form.Item label="Улица" name="street" rules={[required('Укажите улицу')]}>
          <Input autoComplete="address-line1" maxLength={LIMITS.addressPartMax} />
        </Form.Item>
        <Form.Item label="Дом" name="home_number" rules={[required('Укажите номер дома')]}>
          <Input maxLength={LIMITS.houseNumberMax} />
        </Form.Item>
        <Form.Item label="Квартира" name="apartment_number">
          <Input maxLength={LIMITS.houseNumberMax} />
        </Form.Item>
        {failure && <Alert type="error" showIcon title={failure} />}
      </Form>
    </Modal>
  );
}

/** The buyer's delivery addresses (SPEC §7 address calls): the checkout offers them to pick from. */
export function AddressBook({ userId }: { userId: number }) {
  const { data: addresses, isLoading, isError } = useGetAddressesQuery(userId);
  const [remove] = useDeleteAddressMutation();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [removeFailed, setRemoveFailed] = useState(false);
  if (isLoading) return <PageLoading />;

  return (
    <Card
      title="Адреса доставки"
      size="small"
      className="address-book"
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setEditing({})}>
          Добавить адрес
        </Button>
      }
    >
      {isError ? (
        <Alert type="error" showIcon title="Не удалось загрузить адреса" />
      ) : !addresses?.length ? (
        <Empty description="Нет сохранённых адресов" />
      ) : (
        <ul className="address-list">
          {addresses.map((address) => (
            <li key={address.id} className="address-line">
              <span>{formatAddress(address)}</span>
              <span className="address-actions">
                <Button
                  type="text"
                  icon={<EditOutlined />}
                  aria-label={`Изменить адрес: ${formatAddress(address)}`}
                  onClick={() => setEditing({ address })}
                />
                <Popconfirm
                  title="Удалить этот адрес?"
                  okText="Удалить"
                  cancelText="Отмена"
                  onConfirm={() => {
                    setRemoveFailed(false);
                    return remove(address.id)
                      .unwrap()
                      .catch(() => setRemoveFailed(true));
                  }}
                >
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`Удалить адрес: ${formatAddress(address)}`}
                  />
                </Popconfirm>
              </span>
            </li>
          ))}
        </ul>
      )}
      {removeFailed && <Alert type="error" showIcon title="Не удалось удалить адрес" />}
      {editing && <AddressDialog userId={userId} editing={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}

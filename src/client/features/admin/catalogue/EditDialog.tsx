import { Alert, App, Form, InputNumber, Modal, type FormProps } from 'antd';
import { useState, type ReactNode } from 'react';
import { CATALOGUE_LIMITS } from '@shared/catalogue';
import { serverErrorDetail } from '@/api/serverErrorDetail';

interface EditDialogProps<Values> {
  title: string;
  initialValues: FormProps<Values>['initialValues'];
  /** Whether a save is on its way (the OK button spins meanwhile). */
  saving: boolean;
  /** Creates or patches; resolves to the toast to show, or null when nothing changed. */
  save(values: Values): Promise<string | null>;
  /** Said when the server refuses without a detail of its own. */
  failureText: string;
  onClose(): void;
  /** The form's items. */
  children: ReactNode;
}

/**
 * The catalogue's «new or change» dialog: a form in a Modal that saves on «Сохранить», closes when
 * saved, and shows the server's refusal under the form until the form is touched again.
 * Mount it afresh for each opening, so its form starts from `initialValues`.
 */
export function EditDialog<Values>({
  title,
  initialValues,
  saving,
  save,
  failureText,
  onClose,
  children,
}: EditDialogProps<Values>) {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (values: Values) => {
    setFailure(null);
    try {
      const saved = await save(values);
      if (saved) message.success(saved);
      onClose();
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? failureText);
    }
  };

  return (
    <Modal
      open
      title={title}
      okText="Сохранить"
      cancelText="Отмена"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={initialValues}
        onFinish={submit}
        onValuesChange={() => setFailure(null)}
      >
        {children}
        {failure && <Alert type="error" showIcon title={failure} />}
      </Form>
    </Modal>
  );
}

interface PositionItemProps {
  label: string;
  /** Whether the dialog adds a new entry, which may leave its place empty. */
  adding: boolean;
  /** Where a new entry with no position goes. */
  whenEmpty: string;
}

/** The place in the list: a whole number from zero; required when changing an entry. */
export function PositionItem({ label, adding, whenEmpty }: PositionItemProps) {
  return (
    <Form.Item
      label={label}
      name="position"
      extra={adding ? whenEmpty : undefined}
      rules={[
        { required: !adding, message: 'Укажите позицию' },
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
  );
}

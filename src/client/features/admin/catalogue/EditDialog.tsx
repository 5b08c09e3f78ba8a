import { Alert, App, Form, Modal, type FormProps } from 'antd';
import { useState, type ReactNode } from 'react';
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

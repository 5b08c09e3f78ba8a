import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import type { Company, LegalEntity } from '@shared/api';
import {
  COMPANY_MESSAGES,
  LEGAL_ENTITY_KIND_LABELS,
  LEGAL_ENTITY_KINDS,
  mayEditLegalEntities,
  type LegalEntityKind,
} from '@shared/company';
import { LIMITS } from '@shared/limits';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useCreateLegalEntityMutation, useDeleteLegalEntityMutation, useUpdateLegalEntityMutation } from './companyApi';
import { LEGAL_ENTITY_RULES, legalEntityFieldsOf, type LegalEntityForm } from './legalEntityRules';

const KIND_OPTIONS = LEGAL_ENTITY_KINDS.map((kind) => ({ value: kind, label: LEGAL_ENTITY_KIND_LABELS[kind] }));

// Mounted afresh for each opening, so its form starts from the entity being changed.
function LegalEntityDialog({ entity, onClose }: { entity?: LegalEntity; onClose(): void }) {
  const [form] = Form.useForm<LegalEntityForm>();
  const kind = (Form.useWatch('kind', form) ?? entity?.kind ?? 'org') as LegalEntityKind;
  const [create, creating] = useCreateLegalEntityMutation();
  const [update, updating] = useUpdateLegalEntityMutation();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (values: LegalEntityForm) => {
    const fields = legalEntityFieldsOf(values);
    try {
      await (entity ? update({ id: entity.id, ...fields }) : create(fields)).unwrap();
      onClose();
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? 'Не удалось сохранить юрлицо');
    }
  };

  return (
    <Modal
      open
      title={entity ? 'Изменить юрлицо' : 'Новое юрлицо'}
      okText="Сохранить"
      cancelText="Отмена"
      confirmLoading={creating.isLoading || updating.isLoading}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form
        form={form}
        name="legal-entity"
        layout="vertical"
        initialValues={entity ?? { kind: 'org' }}
        onFinish={submit}
        onValuesChange={() => setFailure(null)}
        requiredMark="optional"
      >
        <Form.Item label="Вид" name="kind" required>
          <Radio.Group options={KIND_OPTIONS} optionType="button" />
        </Form.Item>
        <Form.Item label="Наименование" name="name" rules={LEGAL_ENTITY_RULES.name}>
          <Input
            maxLength={LIMITS.companyNameMax}
            placeholder={kind === 'ip' ? 'ИП Иванов Иван Иванович' : 'ООО «Ромашка»'}
          />
        </Form.Item>
        <Form.Item label="ИНН" name="inn" dependencies={['kind']} rules={LEGAL_ENTITY_RULES.inn}>
          <Input inputMode="numeric" maxLength={LIMITS.innMax} />
        </Form.Item>
        {kind === 'org' && (
          <Form.Item label="КПП" name="kpp" dependencies={['inn']} rules={LEGAL_ENTITY_RULES.kpp}>
            <Input inputMode="numeric" maxLength={LIMITS.kppLength} />
          </Form.Item>
        )}
        <Form.Item
          label={kind === 'ip' ? 'ОГРНИП' : 'ОГРН'}
          name="ogrn"
          dependencies={['inn']}
          rules={LEGAL_ENTITY_RULES.ogrn}
        >
          <Input inputMode="numeric" maxLength={15} />
        </Form.Item>
        <Form.Item label="Юридический адрес" name="address">
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={LIMITS.addressMax} />
        </Form.Item>
        <Form.Item label="Банк" name="bank_name">
          <Input maxLength={LIMITS.companyNameMax} />
        </Form.Item>
        <Form.Item label="БИК" name="bik" rules={LEGAL_ENTITY_RULES.bik}>
          <Input inputMode="numeric" maxLength={9} />
        </Form.Item>
        <Form.Item label="Расчётный счёт" name="account" dependencies={['bik']} rules={LEGAL_ENTITY_RULES.account}>
          <Input inputMode="numeric" maxLength={20} />
        </Form.Item>
        <Form.Item
          label="Корреспондентский счёт"
          name="corr_account"
          dependencies={['bik']}
          rules={LEGAL_ENTITY_RULES.corr_account}
        >
          <Input inputMode="numeric" maxLength={20} />
        </Form.Item>
        {failure && <Alert type="error" showIcon title={failure} />}
      </Form>
    </Modal>
  );
}

/** One legal entity's details, those it has. */
function LegalEntityDetails({ entity }: { entity: LegalEntity }) {
  const fields: [string, string | null][] = [
    ['ИНН', entity.inn],
    ['КПП', entity.kpp],
    [entity.kind === 'ip' ? 'ОГРНИП' : 'ОГРН', entity.ogrn],
    ['Адрес', entity.address || null],
    ['Банк', entity.bank_name],
    ['БИК', entity.bik],
    ['Р/с', entity.account],
    ['К/с', entity.corr_account],
  ];
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, md: 2 }}
      items={fields.filter(([, value]) => value).map(([label, value]) => ({ key: label, label, children: value }))}
    />
  );
}

/** What the dialog does: adds a new entity, or changes this one. */
type Editing = { entity?: LegalEntity };

/**
 * The company's legal entities (the checkout orders for one of them), the default one tagged. The
 * owner and the accountant add, change and delete them; a purchaser reads them.
 */
export function LegalEntitiesCard({ company }: { company: Company }) {
  const edits = mayEditLegalEntities(company.role);
  const [remove] = useDeleteLegalEntityMutation();
  const [editing, setEditing] = useState<Editing | null>(null);
  const { message } = App.useApp();

  const removeOne = async (entity: LegalEntity) => {
    try {
      await remove(entity.id).unwrap();
      void message.success(`Юрлицо «${entity.name}» удалено`);
    } catch (error) {
      void message.error(serverErrorDetail(error) ?? 'Не удалось удалить юрлицо');
    }
  };

  return (
    <Card
      title="Юрлица"
      size="small"
      className="company-card company-legal-entities"
      extra={
        edits && (
          <Button icon={<PlusOutlined />} onClick={() => setEditing({})}>
            Добавить юрлицо
          </Button>
        )
      }
    >
      <Flex vertical gap="middle">
        {!edits && <Typography.Text type="secondary">{COMPANY_MESSAGES.legalEntitiesReadOnly}</Typography.Text>}
        {company.legal_entities.length === 0 ? (
          <Empty description="У компании пока нет юрлиц" />
        ) : (
          <ul className="company-list">
            {company.legal_entities.map((entity) => (
              <li key={entity.id} className="company-legal-entity" aria-label={entity.name}>
                <Flex wrap justify="space-between" align="center" gap="small">
                  <Flex wrap align="center" gap="small">
                    <Typography.Text strong>{entity.name}</Typography.Text>
                    <Tag>{LEGAL_ENTITY_KIND_LABELS[entity.kind]}</Tag>
                    {entity.is_default && <Tag color="success">По умолчанию</Tag>}
                  </Flex>
                  {edits && (
                    <span className="company-actions">
                      <Button
                        type="text"
                        icon={<EditOutlined />}
                        aria-label={`Изменить юрлицо ${entity.name}`}
                        onClick={() => setEditing({ entity })}
                      />
                      <Popconfirm
                        title={`Удалить юрлицо «${entity.name}»?`}
                        description="Заказы, оформленные на него, останутся."
                        okText="Удалить"
                        cancelText="Отмена"
                        okButtonProps={{ danger: true }}
                        onConfirm={() => removeOne(entity)}
                      >
                        <Button
                          type="text"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={`Удалить юрлицо ${entity.name}`}
                        />
                      </Popconfirm>
                    </span>
                  )}
                </Flex>
                <LegalEntityDetails entity={entity} />
              </li>
            ))}
          </ul>
        )}
      </Flex>
      {editing && <LegalEntityDialog entity={editing.entity} onClose={() => setEditing(null)} />}
    </Card>
  );
}

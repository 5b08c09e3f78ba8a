import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Flex, Popconfirm, Table, Typography, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageTitle } from '@/components/PageTitle';
import { emptyTable } from '../tableEmpty';

/**
 * An action on a row (a Switch, a delete): its toast when done; the server's refusal, or `fallback`
 * when it gives none, stays above the table until closed or the next action.
 */
export function useRowAction() {
  const { message } = App.useApp();
  const [failure, setFailure] = useState<string | null>(null);
  const attempt = async (action: () => Promise<unknown>, success: string, fallback: string) => {
    setFailure(null);
    try {
      await action();
      message.success(success);
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? fallback);
    }
  };
  return { attempt, failure, dismissFailure: () => setFailure(null) };
}

interface RowActionsProps {
  editLabel: string;
  deleteLabel: string;
  /** The question asked before deleting. */
  confirmDelete: string;
  onEdit(): void;
  onDelete(): void;
}

/** A row's «change» and «delete» icon buttons; deleting is asked first. */
export function RowActions({ editLabel, deleteLabel, confirmDelete, onEdit, onDelete }: RowActionsProps) {
  return (
    <Flex gap="small">
      <Button type="text" icon={<EditOutlined />} aria-label={editLabel} onClick={onEdit} />
      <Popconfirm title={confirmDelete} okText="Удалить" cancelText="Отмена" onConfirm={onDelete}>
        <Button type="text" danger icon={<DeleteOutlined />} aria-label={deleteLabel} />
      </Popconfirm>
    </Flex>
  );
}

interface CatalogueListProps<Row> {
  title: string;
  addLabel: string;
  onAdd(): void;
  /** Said when the list could not be loaded. */
  loadFailure?: string;
  /** A row action's refusal, from useRowAction. */
  failure: string | null;
  onDismissFailure(): void;
  columns: TableColumnsType<Row>;
  rows?: Row[];
  loading: boolean;
  emptyText: string;
  /** What follows the table: the dialog when open, a section of the page's own. */
  children?: ReactNode;
}

/** A short list the back office edits in place (categories, banners, price types): all rows, no pages. */
export function CatalogueList<Row extends { id: number }>({
  title,
  addLabel,
  onAdd,
  loadFailure,
  failure,
  onDismissFailure,
  columns,
  rows,
  loading,
  emptyText,
  children,
}: CatalogueListProps<Row>) {
  return (
    <>
      <PageTitle name={title} />
      <div className="admin-page-head">
        <Typography.Title>{title}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={onAdd}>
          {addLabel}
        </Button>
      </div>
      {loadFailure && <Alert type="error" showIcon title={loadFailure} />}
      {failure && <Alert type="error" showIcon closable title={failure} onClose={onDismissFailure} />}
      <Table<Row>
        rowKey="id"
        columns={columns}
        dataSource={rows}
        loading={loading}
        pagination={false}
        locale={emptyTable(emptyText)}
        scroll={{ x: 'max-content' }}
      />
      {children}
    </>
  );
}

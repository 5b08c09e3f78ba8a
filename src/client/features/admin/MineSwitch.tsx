import { Switch } from 'antd';

/** «Мои клиенты»: a list narrowed to the companies the signed-in manager looks after. */
export function MineSwitch({ id, checked, onChange }: { id: string; checked: boolean; onChange(mine: boolean): void }) {
  return (
    <div className="admin-filter">
      <label htmlFor={id}>Мои клиенты</label>
      <Switch id={id} className="admin-filter-switch" checked={checked} onChange={onChange} />
    </div>
  );
}

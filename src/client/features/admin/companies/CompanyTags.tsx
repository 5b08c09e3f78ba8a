import { Tag } from 'antd';

/** «Заблокирована» and «Проверенная»: the marks a manager put on a company, in its list and on its page. */
export function CompanyTags({ company }: { company: { blocked: boolean; trusted: boolean } }) {
  return (
    <>
      {company.blocked && <Tag color="error">Заблокирована</Tag>}
      {company.trusted && <Tag color="success">Проверенная</Tag>}
    </>
  );
}

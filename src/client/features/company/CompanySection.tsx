import './company.css';
import { Alert, Button } from 'antd';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { mayManageFeed } from '@shared/feeds';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageLoading } from '@/components/PageLoading';
import { useGetCompanyQuery } from './companyApi';
import { COMPANY_SECTION_ID } from './companyPaths';
import { CompanyNameCard } from './CompanyNameCard';
import { FeedCard } from './FeedCard';
import { LegalEntitiesCard } from './LegalEntities';
import { ManagerCard } from './ManagerCard';
import { MembersCard } from './MembersCard';

/**
 * The profile's «Компания»: its name and the caller's role, the shop's manager, the employees and
 * invitations, the legal entities, the owner's product feed. Each shows only the controls the caller's role allows; the
 * server checks the role again on every change.
 */
export function CompanySection() {
  const { data: company, isLoading, error, refetch } = useGetCompanyQuery();
  const { hash } = useLocation();
  const loaded = company !== undefined;
  // Opened at #company (from an accepted invitation): shown once its cards have their height.
  useEffect(() => {
    if (loaded && hash === `#${COMPANY_SECTION_ID}`) document.getElementById(COMPANY_SECTION_ID)?.scrollIntoView?.();
  }, [loaded, hash]);
  return (
    <section id={COMPANY_SECTION_ID} className="company-section" aria-labelledby="company-section-title">
      <h2 id="company-section-title" className="section-title">
        Компания
      </h2>
      {isLoading ? (
        <PageLoading />
      ) : !company ? (
        <Alert
          type="error"
          showIcon
          title="Не удалось загрузить данные компании"
          description={serverErrorDetail(error)}
          action={<Button onClick={() => void refetch()}>Повторить</Button>}
        />
      ) : (
        <div className="company-grid">
          <CompanyNameCard company={company} />
          <ManagerCard manager={company.manager} />
          <MembersCard company={company} />
          <LegalEntitiesCard company={company} />
          {mayManageFeed(company.role) && <FeedCard />}
        </div>
      )}
    </section>
  );
}

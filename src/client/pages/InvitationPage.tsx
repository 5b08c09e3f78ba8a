// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import '../theme/antd-company.generated.css';
import './InvitationPage.css';
import { Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageTitle } from '@/components/PageTitle';
import { InvitationAnswer } from '@/features/company/InvitationAnswer';
import { ConsentField } from '@/features/session/ConsentField';

/** The invitation's token in the link's fragment: `#<token>`, or `#token=<token>`. */
function tokenOf(hash: string): string | null {
  const fragment = hash.replace(/^#/, '');
  return fragment ? (new URLSearchParams(fragment).get('token') ?? fragment) : null;
}

/**
 * PAGE_PATHS.invitation (/invite#<token>), the link of an invitation's letter. The token travels in the
 * fragment, which no request carries (server logs, Referer); read once, it is wiped from the address
 * bar (history.replaceState, through the router), so no history entry or bookmark keeps it.
 */
export default function InvitationPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenOf(location.hash));
  useEffect(() => {
    if (location.hash) navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [location.hash, location.pathname, location.search, navigate]);

  return (
    <div className="invitation-page">
      <PageTitle name="Приглашение в компанию" />
      <Typography.Title>Приглашение в компанию</Typography.Title>
      <InvitationAnswer token={token} consentField={<ConsentField />} />
    </div>
  );
}

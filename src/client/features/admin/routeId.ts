import { useParams } from 'react-router';

/** The page's `:id` when it is a whole number an id can be, else null (the page then says it is not found). */
export function useRouteId(): number | null {
  const { id } = useParams();
  return /^[1-9]\d{0,9}$/.test(id ?? '') ? Number(id) : null;
}

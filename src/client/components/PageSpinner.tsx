/** A CSS spinner: the page-loading state must not wait for a component library to download. */
export function PageSpinner() {
  return (
    <div className="page-spinner" role="status" aria-label="Загрузка">
      <span className="page-spinner-ring" />
    </div>
  );
}

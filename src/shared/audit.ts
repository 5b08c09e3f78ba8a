/**
 * What the back office's journal records (audit_log.action, a verb on an entity): the server writes
 * only these, and the journal has a Russian name for each (features/admin/audit/auditWords.ts). A
 * module of its own, so the storefront's first load never carries the list.
 */
export const AUDIT_ACTIONS = [
  'product.create',
  'product.update',
  'product.hide',
  'variant.create',
  'variant.update',
  'variant.delete',
  'category.create',
  'category.update',
  'category.delete',
  'banner.create',
  'banner.update',
  'banner.delete',
  'image.upload',
  'invoice.issue',
  'catalogue.import',
  'settings.requisites',
  'user.role',
  'buyer.trust',
  'buyer.distrust',
  'company.rename',
  'company.block',
  'company.unblock',
  'company.trust',
  'company.distrust',
  'company.manager',
  'company.merge',
  'company.invite',
  'company.invitation.accept',
  'company.invitation.revoke',
  'company.member.role',
  'company.member.remove',
  'legal_entity.create',
  'legal_entity.update',
  'legal_entity.delete',
  'staff.profile',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
/** What a journal entry is about (audit_log.entity). */
export const AUDIT_ENTITIES = [
  'product',
  'variant',
  'category',
  'banner',
  'image',
  'order',
  'catalogue',
  'supplier_requisites',
  'user',
  'company',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

import type { LinkManagementStore } from '../../core/store/link-management-store.js';

/** What each store's owner-key module implements (SQLite and PostgreSQL alike). */
export type OwnerKeyOperation = 'createKey' | 'listKeys' | 'revokeKey' | 'findKeyByHash' | 'touchKey';

/**
 * What each store's link-management module implements; its owner keys, clicks and visits, and
 * bulk edits (tags renamed or deleted, visits deleted) come from modules of their own.
 */
export type LinkRecordManagement = Omit<
  LinkManagementStore,
  | OwnerKeyOperation
  | 'addClicks'
  | 'clicksOf'
  | 'visitTalliesOf'
  | 'listVisits'
  | 'renameTag'
  | 'deleteTag'
  | 'deleteVisits'
  | LinkClaimOperation
>;

/** What each store's link-claim module implements (a link made without a key, made its maker's). */
export type LinkClaimOperation = 'claimStateOf' | 'claimLink';

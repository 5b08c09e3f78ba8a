import { lazy, type ComponentType } from 'react';

type Loaded = { default: ComponentType };

/**
 * A lazily loaded part of the shop built with antd: its chunk and antd's theme (AntdScope) load
 * together when it is first shown, so the shell and the home page never download antd.
 */
export function lazyWithAntd(load: () => Promise<Loaded>) {
  return lazy(async () => {
    const [{ default: Part }, { AntdScope }] = await Promise.all([load(), import(/* webpackChunkName: "antd-scope" */ './AntdScope')]);
    return {
      default: () => (
        <AntdScope>
          <Part />
        </AntdScope>
      ),
    };
  });
}

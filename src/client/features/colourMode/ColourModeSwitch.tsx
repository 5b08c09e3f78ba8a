import { DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Segmented } from 'antd';
import { useAppDispatch, useAppSelector } from '@/app/withTypes';
import { colourModeChanged, selectColourMode, type ColourMode } from './colourModeSlice';

const options: { value: ColourMode; label: string; icon: React.ReactNode }[] = [
  { value: 'light', label: 'Светлая тема', icon: <SunOutlined /> },
  { value: 'dark', label: 'Тёмная тема', icon: <MoonOutlined /> },
  { value: 'system', label: 'Как в системе', icon: <DesktopOutlined /> },
];

export function ColourModeSwitch({ withLabels = false }: { withLabels?: boolean }) {
  const mode = useAppSelector(selectColourMode);
  const dispatch = useAppDispatch();
  return (
    <Segmented<ColourMode>
      aria-label="Цветовая тема"
      size="small"
      value={mode}
      onChange={(value) => dispatch(colourModeChanged(value))}
      options={options.map(({ value, label, icon }) => ({
        value,
        icon,
        label: withLabels ? label : undefined,
        title: label,
        'aria-label': label,
      }))}
    />
  );
}

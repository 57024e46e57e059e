// A stacked bar chart (Chart.js on a canvas) with the same numbers as a table for screen readers
// and for anyone who wants exact counts. Optionally some periods are shaded behind the bars (the
// dashboard's maintenance windows), with a legend entry, a column of the table and a word in the
// canvas's label as their text equivalent.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  type LegendItem,
  LinearScale,
  type Plugin,
  Tooltip,
} from 'chart.js'
import { useEffect, useRef } from 'react'

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip)

export interface Series {
  label: string
  color: string
  values: number[]
}

/** Periods shaded behind the bars: `names[i]` says what covers period i ('' for nothing). */
export interface Shading {
  label: string
  fill: string
  border: string
  names: string[]
}

function shadingPlugin(shading: Shading): Plugin<'bar'> {
  return {
    id: 'shading',
    beforeDatasetsDraw(chart) {
      const { ctx, chartArea, scales } = chart
      const x = scales.x
      const n = shading.names.length
      if (!x || n === 0) return
      const width = (chartArea.right - chartArea.left) / n
      ctx.save()
      ctx.fillStyle = shading.fill
      shading.names.forEach((name, i) => {
        if (name) ctx.fillRect(x.getPixelForValue(i) - width / 2, chartArea.top, width, chartArea.height)
      })
      ctx.restore()
    },
  }
}

export function BarChart({
  title,
  labels,
  series,
  shading,
}: {
  title: string
  labels: string[]
  series: Series[]
  shading?: Shading | undefined
}) {
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    if (!canvas.current) return
    const shadingItem: LegendItem | null = shading
      ? {
          text: shading.label,
          fillStyle: shading.fill,
          strokeStyle: shading.border,
          lineWidth: 1,
          hidden: false,
        }
      : null
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels,
        datasets: series.map((s) => ({
          label: s.label,
          data: s.values,
          backgroundColor: s.color,
          borderWidth: 0,
        })),
      },
      plugins: shading ? [shadingPlugin(shading)] : [],
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          legend: {
            position: 'bottom',
            labels: {
              generateLabels: (c) => [
                ...Chart.defaults.plugins.legend.labels.generateLabels(c),
                ...(shadingItem ? [shadingItem] : []),
              ],
            },
            // The shading's entry stands for no dataset: clicking it hides nothing.
            onClick(e, item, legend) {
              if (item.datasetIndex !== undefined)
                Chart.defaults.plugins.legend.onClick.call(this, e, item, legend)
            },
          },
        },
        scales: {
          x: { stacked: true },
          y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } },
        },
      },
    })
    return () => chart.destroy()
  }, [labels, series, shading])
  const total = series.reduce((n, s) => n + s.values.reduce((a, b) => a + b, 0), 0)
  const shaded = shading ? shading.names.filter(Boolean).length : 0
  const shadingText = shading ? `; ${shaded} of ${labels.length} periods shaded: ${shading.label}` : ''
  return (
    <figure className="panel">
      <figcaption>
        <strong>{title}</strong>
      </figcaption>
      <div className="chart-box">
        <canvas
          ref={canvas}
          role="img"
          aria-label={`${title}: ${total} events${shadingText}; the table below has the numbers`}
        />
      </div>
      <details>
        <summary>Show as a table</summary>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Period</th>
                {series.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
                {shading && <th scope="col">{shading.label}</th>}
              </tr>
            </thead>
            <tbody>
              {labels.map((l, i) => (
                // By position: the hour clocks repeat when they go back has the same label twice.
                // biome-ignore lint/suspicious/noArrayIndexKey: the rows are the periods, in order
                <tr key={i}>
                  <th scope="row">{l}</th>
                  {series.map((s) => (
                    <td key={s.label}>{s.values[i] ?? 0}</td>
                  ))}
                  {shading && <td>{shading.names[i] || '—'}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  )
}

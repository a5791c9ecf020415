/**
 * A small generic-CSV journal in three accounts, written for the positions and campaigns tests: an open AMD wheel
 * (IRA) whose contracts exist in the real AMD chain of 2023-08-18's close, a closed wheel on XYZ (Taxable), and two
 * AMD options past their expiry with no closing row (Misc). Its figures are worked out in integration/main/services/journal/positions.test.ts.
 */
const HEADER = 'date,account,type,symbol,quantity,price,commission,fees,amount,orderId,expiration,strike,right,id';
export const AMD_WHEEL = [
  HEADER,
  // IRA: a put assigned, a call expired, a put rolled, then a covered call and two more puts: open at the snapshot.
  '2023-07-03T14:00:00Z,IRA,SELL_TO_OPEN,AMD,1,2.50,1.00,0.10,248.90,O1,2023-07-21,110,P,i1',
  '2023-07-21,IRA,ASSIGNMENT,AMD230721P00110000,1,0,0,0,0,,,,,i2',
  '2023-07-21,IRA,BUY,AMD,100,110,0,0,-11000,,,,,i3',
  '2023-07-24T14:00:00Z,IRA,SELL_TO_OPEN,AMD,1,1.20,1.00,0.10,118.90,O2,2023-08-18,115,C,i4',
  '2023-08-07T14:00:00Z,IRA,SELL_TO_OPEN,AMD,1,1.50,1.00,0.10,148.90,O3,2023-08-18,100,P,i5',
  '2023-08-17T15:00:00Z,IRA,BUY_TO_CLOSE,AMD,1,0.80,0,0.10,-80.10,R1,2023-08-18,100,P,i6',
  '2023-08-17T15:00:00Z,IRA,SELL_TO_OPEN,AMD,1,2.00,1.00,0.10,198.90,R1,2023-09-01,100,P,i7',
  '2023-08-18,IRA,EXPIRATION,AMD230818C00115000,1,0,0,0,0,,,,,i8',
  '2023-08-18T15:00:00Z,IRA,SELL_TO_OPEN,AMD,1,2.40,1.00,0.10,238.90,O4,2023-09-01,110,C,i9',
  '2023-08-18T15:30:00Z,IRA,SELL_TO_OPEN,AMD,2,1.50,2.00,0.20,297.80,O5,2023-09-15,95,P,i10',
  // Taxable: a closed wheel on a symbol without snapshots.
  '2023-01-03T15:00:00Z,Taxable,SELL_TO_OPEN,XYZ,1,1.00,1.00,0,99.00,,2023-01-20,50,P,x1',
  '2023-01-20,Taxable,ASSIGNMENT,XYZ230120P00050000,1,0,0,0,0,,,,,x2',
  '2023-01-20,Taxable,BUY,XYZ,100,50,0,0,-5000,,,,,x3',
  '2023-01-23T15:00:00Z,Taxable,SELL_TO_OPEN,XYZ,1,0.80,1.00,0,79.00,,2023-02-17,52,C,x4',
  '2023-02-10,Taxable,DIVIDEND,XYZ,0,0,0,0,25.00,,,,,x5',
  '2023-02-17,Taxable,ASSIGNMENT,XYZ230217C00052000,1,0,0,0,0,,,,,x6',
  '2023-02-17,Taxable,SELL,XYZ,100,52,0,0,5200,,,,,x7',
  // Misc: two options past their expiry of 2023-08-18 with no closing row; spot 105.60 on the next snapshot.
  '2023-08-01T15:00:00Z,Misc,SELL_TO_OPEN,AMD,1,1.00,1.00,0,99.00,,2023-08-18,100,P,m1',
  '2023-08-01T15:00:00Z,Misc,SELL_TO_OPEN,AMD,1,3.00,1.00,0,299.00,,2023-08-18,100,C,m2',
].join('\n');
